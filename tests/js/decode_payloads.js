// Decode site payloads with rope-viz-figures.js's own decodePayload, as a page does: read a JSON list of
// payloads on standard input, write for each the state at every key (resolved) and the value texts.
// tests/test_javascript.py compares them with what Python wrote.
const fs = require("node:fs");
const { load } = require("./load.js");

const figures = load("rope-viz-figures.js", "RopeVizFigures");
const payloads = JSON.parse(fs.readFileSync(0, "utf8"));
const decoded = payloads.map((payload) => {
  const source = figures.decodePayload(payload);
  const sizes = payload.controls.map((control) => control.texts.length);
  const states = {};
  (function walk(prefix) {
    if (prefix.length === sizes.length) {
      states[prefix.join(",")] = { key: source.key(prefix), state: source.state(prefix) };
      return;
    }
    for (let index = 0; index < sizes[prefix.length]; index++) walk(prefix.concat([index]));
  })([]);
  return { figure: source.figure, texts: source.texts, states };
});
process.stdout.write(JSON.stringify(decoded));
