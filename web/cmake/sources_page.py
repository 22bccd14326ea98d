#!/usr/bin/env python3
"""Writes sources.html: every bundled default with its source and date.

Usage: sources_page.py ASSETS_DIR OUT.html
Reads assets/devices.json, systems.json, prices.json, models.json and operations.json (the same
tables compiled into the calculator) and lists each number beside the source text and date the
table gives for it. Text is HTML-escaped; the page needs no script and makes no request.
"""
import html
import json
import os
import sys


def esc(x):
    return html.escape(str(x), quote=True)


def number(v):
    if isinstance(v, bool) or v is None:
        return esc(v)
    if isinstance(v, float) and v.is_integer() and abs(v) < 1e15:
        v = int(v)
    if isinstance(v, int):
        return f"{v:,}"
    return f"{v:.6g}"


def flat(obj, prefix=""):
    for k, v in obj.items():
        if k in ("sources", "notes", "note", "aliases"):
            continue
        path = f"{prefix}.{k}" if prefix else k
        if isinstance(v, dict):
            yield from flat(v, path)
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            yield path, v


def record_rows(records, title):
    out = [f'<h2 id="{esc(title.lower())}">{esc(title)}</h2>']
    for r in records:
        src = r.get("sources", {})
        out.append(f'<h3 id="{esc(title.lower())}-{esc(r["id"])}">{esc(r.get("name", r["id"]))} <code>{esc(r["id"])}</code></h3>')
        out.append("<table><tr><th>Field</th><th>Value</th><th>Source</th><th>Date</th></tr>")
        for path, v in flat(r):
            s = src.get(path, {})
            out.append(f"<tr><td><code>{esc(path)}</code></td><td>{number(v)}</td>"
                       f"<td>{esc(s.get('text', ''))}</td><td>{esc(s.get('date', ''))}</td></tr>")
        out.append("</table>")
    return out


def simple_rows(records, title, fields, source_key="source", date_key="date"):
    out = [f'<h2 id="{esc(title.lower().replace(" ", "-"))}">{esc(title)}</h2>', "<table><tr><th>Id</th>"]
    out[-1] += "".join(f"<th>{esc(f)}</th>" for f in fields) + "<th>Source</th><th>Date</th></tr>"
    for r in records:
        cells = "".join(f"<td>{number(r.get(f)) if isinstance(r.get(f), (int, float)) else esc(r.get(f, ''))}</td>" for f in fields)
        out.append(f"<tr><td><code>{esc(r['id'])}</code></td>{cells}<td>{esc(r.get(source_key, ''))}</td>"
                   f"<td>{esc(r.get(date_key, ''))}</td></tr>")
    out.append("</table>")
    return out


def main():
    assets, out_path = sys.argv[1], sys.argv[2]
    load = lambda n: json.load(open(os.path.join(assets, n), encoding="utf-8"))
    devices, systems = load("devices.json")["devices"], load("systems.json")["systems"]
    prices, models, ops = load("prices.json")["prices"], load("models.json")["models"], load("operations.json")
    body = ['<!doctype html><html lang="en"><head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            "<title>Sizer — sources and assumptions</title>",
            '<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,%3Csvg xmlns=\'http://www.w3.org/2000/svg\' '
            'viewBox=\'0 0 16 16\'%3E%3Crect width=\'16\' height=\'16\' rx=\'3\' fill=\'%232f6fb0\'/%3E%3Cpath '
            'd=\'M3 13h2V9H3zm4 0h2V6H7zm4 0h2V3h-2z\' fill=\'%23fff\'/%3E%3C/svg%3E">',
            '<link rel="stylesheet" href="site.css"></head><body><main>',
            '<nav><a href="index.html">Calculator</a> · <a href="method.html">Method</a> · Sources and assumptions</nav>',
            "<h1>Sources and assumptions</h1>",
            "<p>Every default the calculator uses, with the source and the date its table gives. Peaks are "
            "<em>dense</em> (no 2:4 sparsity); bytes are decimal (GB = 10<sup>9</sup> B) unless a source says GiB. "
            "Where the seed post states a value, it is the default, so the calculator reproduces the post. "
            "Generated from the bundled tables (<code>assets/*.json</code>) when the site is built.</p>",
            '<p><a href="#devices">Devices</a> · <a href="#systems">Systems</a> · <a href="#price-offers">Price offers</a> · '
            '<a href="#models">Models</a> · <a href="#failure-rates">Failure rates</a> · <a href="#capital-costs">Capital costs</a> · '
            '<a href="#grid-carbon-intensity">Grid carbon intensity</a></p>']
    body += record_rows(devices, "Devices")
    body += record_rows(systems, "Systems")
    body += simple_rows(prices, "Price offers", ["device", "provider", "offer_kind", "region", "usd_per_device_hour"],
                        date_key="date_checked")
    body += record_rows(models, "Models")
    body += simple_rows(ops["failure_rates"], "Failure rates",
                        ["basis", "device", "host", "network", "software", "failure_domain_devices"])
    body += simple_rows(ops["capital_costs"], "Capital costs", ["device", "usd_per_device", "network_storage_fraction"])
    body += simple_rows(ops["grids"], "Grid carbon intensity", ["name", "g_co2e_per_kwh"], date_key="year")
    body.append("</main></body></html>\n")
    with open(out_path, "w", encoding="utf-8") as f:
        f.write("\n".join(body))


if __name__ == "__main__":
    main()
