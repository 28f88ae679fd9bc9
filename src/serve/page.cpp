#include "serve/page.h"

namespace s2s::serve {

// Text from the server is set with textContent; only the heatmap, which the server escaped
// while drawing it (eval/report_svg.cpp), is inserted as markup.
const std::string& page_html() {
  static const std::string page = R"html(<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>s2s serve</title>
<link rel="icon" href="data:,">
<style>
body { font: 15px/1.45 sans-serif; margin: 1.5em auto; max-width: 1100px; padding: 0 1em; color: #222; }
h1 { font-size: 1.3em; margin-bottom: 0.2em; } #info { color: #666; font-size: 0.9em; }
textarea { width: 100%; box-sizing: border-box; font: inherit; padding: 0.4em; }
form .row { display: flex; gap: 1.2em; align-items: center; flex-wrap: wrap; margin: 0.5em 0; }
input[type=number] { width: 4.5em; font: inherit; }
button { font: inherit; padding: 0.3em 1.2em; }
:focus-visible { outline: 3px solid #e6550d; outline-offset: 1px; }
#error { color: #b00020; } .warning { color: #8a5a00; }
.result { border-top: 1px solid #ddd; padding: 0.6em 0; }
.translation { font-size: 1.15em; font-weight: bold; }
ol.nbest { color: #444; } ol.nbest .score { color: #888; font-size: 0.85em; margin-left: 0.6em; }
.heatmap-box { overflow-x: auto; }
svg text { font: 11px sans-serif; fill: #333; }
#hover { min-height: 1.4em; color: #444; font-family: monospace; }
</style>
</head>
<body>
<h1>Attention, live</h1>
<p id="info">loading…</p>
<form id="form" novalidate>
<label for="source">Source sentences, one per line (Enter translates, Shift+Enter starts a new line)</label>
<textarea id="source" rows="3" autofocus></textarea>
<div class="row">
<label>Beam <input id="beam" type="number" min="1" max="100"></label>
<label>N-best <input id="nbest" type="number" min="1" max="100" value="1"></label>
<button id="go" type="submit">Translate</button>
<span id="status" aria-live="polite"></span>
</div>
</form>
<p id="error" role="alert"></p>
<p id="hover" aria-live="off"></p>
<div id="results"></div>
<script>
'use strict';
const $ = (id) => document.getElementById(id);
const el = (tag, cls, text) => {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
};

fetch('info').then((r) => r.json()).then((info) => {
  const m = info.model || {};
  $('info').textContent = [info.run, info.checkpoint, m.scorer && ('scorer ' + m.scorer),
    m.normalizer, info.precision].filter(Boolean).join(' · ');
  if (info.decoding && info.decoding.beam) $('beam').placeholder = info.decoding.beam;
}).catch(() => { $('info').textContent = ''; });

function show(lines, data) {
  const results = $('results');
  results.replaceChildren();
  const list = data.translations || [];
  list.forEach((t, i) => {
    const box = el('section', 'result');
    box.append(el('div', 'source', lines[i]));
    box.append(el('div', 'translation', t.translation));
    for (const w of t.warnings || []) box.append(el('div', 'warning', w));
    if (t.n_best && t.n_best.length > 1) {
      const ol = el('ol', 'nbest');
      for (const c of t.n_best) {
        const li = el('li', null, c.translation);
        li.append(el('span', 'score', (c.normalized_score ?? c.score ?? 0).toFixed(3)));
        ol.append(li);
      }
      box.append(ol);
    }
    const map = el('div', 'heatmap-box');
    if (t.heatmap) map.innerHTML = t.heatmap;  // drawn and escaped by the server
    else if (t.translation !== '' || lines[i] !== '') map.append(el('p', 'warning', 'no attention to show'));
    box.append(map);
    results.append(box);
  });
}

async function translate(event) {
  event.preventDefault();
  const lines = $('source').value.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  $('error').textContent = '';
  if (lines.length === 0) { $('error').textContent = 'Type a sentence first.'; return; }
  const body = { texts: lines, attention: false, heatmap: true };
  if ($('beam').value) body.beam = Number($('beam').value);
  if (Number($('nbest').value) > 1) body.n_best = Number($('nbest').value);
  $('status').textContent = 'translating…';
  $('go').disabled = true;
  try {
    const response = await fetch('translate', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
    const data = await response.json();
    if (!response.ok) throw new Error(data.error || ('HTTP ' + response.status));
    show(lines, data);
    $('status').textContent = 'done';
  } catch (e) {
    $('error').textContent = e.message;
    $('status').textContent = '';
  } finally {
    $('go').disabled = false;
  }
}

$('form').addEventListener('submit', translate);
$('source').addEventListener('keydown', (e) => {
  if (e.key === 'Enter' && !e.shiftKey) { e.preventDefault(); $('form').requestSubmit(); }
});
// What a hovered cell's <title> says, also in plain text for keyboards and screen readers.
$('results').addEventListener('mouseover', (e) => {
  const cell = e.target.closest && e.target.closest('rect.cell');
  if (cell) $('hover').textContent = cell.querySelector('title').textContent;
});
</script>
</body>
</html>
)html";
  return page;
}

}  // namespace s2s::serve
