// Sizer embed.js: put live Sizer cards in any page.
//
//   <div data-sizer='{"model": "moe-1t", "device": "h100"}' data-show="cluster_devices,cost_usd"></div>
//   <script src="https://YOUR-SIZER-SITE/embed.js" defer></script>
//
// data-sizer holds a scenario (its JSON, or an "s1." link fragment from "Copy link"); data-show
// names v1 result leaves; data-inputs names inputs readers may change (training.days, ...);
// data-title is an optional heading. Each div becomes an iframe of embed.html from the same site
// as this script, which checks everything and lists unknown names. This script reads only the
// div's attributes, never puts them into HTML, and requests nothing itself.
(function () {
  'use strict';
  var kMaxChars = 32768;  // longer attributes are refused here (the card refuses them too)
  var script = document.currentScript;
  var base = script && script.src ? script.src.slice(0, script.src.lastIndexOf('/') + 1) : '';
  var frames = [];

  function mount(div) {
    if (div.getAttribute('data-sizer-mounted')) return;
    div.setAttribute('data-sizer-mounted', '1');
    var scenario = (div.getAttribute('data-sizer') || '').trim();
    if (!base) { div.textContent = 'Sizer: embed.js must be loaded with a src address.'; return; }
    if (scenario.length > kMaxChars) {
      div.textContent = 'Sizer: this scenario is too large to embed (' + scenario.length + ' characters; at most ' + kMaxChars + ').';
      return;
    }
    var parts = ['j=' + encodeURIComponent(scenario)];
    var keys = [['data-show', 'show'], ['data-inputs', 'in'], ['data-title', 'title']];
    for (var i = 0; i < keys.length; i++) {
      var v = div.getAttribute(keys[i][0]);
      if (v) parts.push(keys[i][1] + '=' + encodeURIComponent(v.slice(0, 2000)));
    }
    var frame = document.createElement('iframe');
    frame.src = base + 'embed.html#' + parts.join('&');
    frame.title = 'Sizer estimate';
    frame.loading = 'lazy';
    frame.referrerPolicy = 'no-referrer';
    frame.style.cssText = 'border:0;width:100%;max-width:440px;height:320px;display:block';
    div.textContent = '';
    div.appendChild(frame);
    frames.push(frame);
  }

  // The card reports its height (a number) so the iframe fits it; anything else is ignored.
  window.addEventListener('message', function (e) {
    var h = e.data && typeof e.data.sizerHeight === 'number' ? e.data.sizerHeight : 0;
    if (!(h > 50 && h < 4000)) return;
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].contentWindow === e.source) frames[i].style.height = Math.round(h) + 'px';
    }
  });

  function mountAll() {
    var divs = document.querySelectorAll('div[data-sizer]');
    for (var i = 0; i < divs.length; i++) mount(divs[i]);
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', mountAll);
  else mountAll();
  window.SizerEmbed = { mount: mountAll };
})();
