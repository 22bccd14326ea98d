// The embed card (embed.html): reads the address fragment (#s=s1.…&show=…&in=…&title=…, or j= with
// the scenario JSON that embed.js passes), and shows the card the core makes (sizer.embedCard).
// All parsing and checking is in C++; this file only puts the card's TEXT into the page
// (textContent, never HTML) and re-asks the core when a reader changes an exposed input.
import createSizer from './sizer.mjs';

const $ = (id) => document.getElementById(id);

function postHeight() {  // lets embed.js size the iframe to the card; a number carries no data
  if (window.parent !== window) window.parent.postMessage({ sizerHeight: document.body.scrollHeight + 4 }, '*');
}

function showIssues(lines) {
  $('issues').textContent = lines.join('\n');
  $('issues').hidden = lines.length === 0;
}

function renderOutputs(card) {
  const dl = $('outputs');
  dl.replaceChildren();
  for (const o of card.outputs) {
    const dt = document.createElement('dt');
    dt.textContent = o.label;
    dt.title = o.path;
    const dd = document.createElement('dd');
    dd.textContent = o.text;
    if (o.interval) {  // the core's p10–p90 under the headline (docs/operations.md: intervals on every headline)
      const small = document.createElement('small');
      small.className = 'interval';
      small.textContent = o.interval;
      dd.append(document.createElement('br'), small);
    }
    dd.dataset.name = o.name;
    dd.dataset.path = o.path;
    dd.dataset.value = JSON.stringify(o.value);
    dl.append(dt, dd);
  }
  $('scenario-text').textContent = `${card.model} on ${card.device}`;
  $('user-mark').hidden = !card.user_supplied;
  $('open').href = 'index.html#' + card.link;  // the core's base64url text: safe in an address
}

// Sets `value` at a dotted path the core accepted as an input (training.*, serving.*, power.*).
function setPath(scenario, path, value) {
  const keys = path.split('.');
  let node = scenario;
  for (const k of keys.slice(0, -1)) {
    if (typeof node[k] !== 'object' || node[k] === null || Array.isArray(node[k])) node[k] = {};
    node = node[k];
  }
  node[keys[keys.length - 1]] = value;
}

async function main() {
  const sizer = await createSizer();
  const request = sizer.embedRequest(location.hash);
  let card = sizer.embedCard(request);
  $('title').textContent = card.title;
  const baseIssues = card.issues.map((i) => (i.path ? `${i.path}: ` : '') + i.message);
  if (card.error) {  // the author's scenario cannot be used: say so, and show no numbers at all
    showIssues([card.error, ...baseIssues]);
    $('scenario').hidden = true;
    $('outputs').hidden = true;
    $('open').hidden = true;
    $('status').hidden = true;
    $('card').hidden = false;
    document.documentElement.dataset.sizer = 'ready';
    postHeight();
    return;
  }
  renderOutputs(card);
  showIssues(baseIssues);
  const inputs = $('inputs');
  for (const input of card.inputs) {
    const label = document.createElement('label');
    const span = document.createElement('span');
    span.textContent = input.label;
    const field = document.createElement('input');
    field.type = 'number';
    field.step = 'any';
    field.value = String(input.value);
    field.dataset.path = input.path;
    field.setAttribute('aria-label', input.label);
    field.addEventListener('change', () => {
      const value = Number(field.value);
      const next = structuredClone(request);
      setPath(next.scenario, input.path, Number.isFinite(value) && field.value.trim() !== '' ? value : field.value);
      const nextCard = sizer.embedCard(next);
      const problems = nextCard.issues.filter((i) => !['show', 'in', 'embed'].includes(i.path));
      if (problems.length) {  // keep the last good numbers; say what is wrong
        showIssues([...baseIssues, ...problems.filter((i) => i.path !== 'scenario').map((i) => `${i.path}: ${i.message}`)]);
        field.setAttribute('aria-invalid', 'true');
        return;
      }
      field.removeAttribute('aria-invalid');
      setPath(request.scenario, input.path, value);
      card = nextCard;
      renderOutputs(card);
      showIssues(baseIssues);
    });
    label.append(span, field);
    inputs.append(label);
  }
  $('status').hidden = true;
  $('card').hidden = false;
  document.documentElement.dataset.sizer = 'ready';
  postHeight();
}

main().catch((e) => {
  $('status').textContent = 'Sizer could not start: ' + (e && e.message ? e.message : String(e));
});
