// Slug texts with rope-viz-figures.js's own slug, as a page does for scene links: read a JSON list of texts on
// standard input, write their slugs. tests/test_scene_links.py compares them with rope_viz.figures.scene_links.
const fs = require("node:fs");
const { load } = require("./load.js");

const figures = load("rope-viz-figures.js", "RopeVizFigures");
const texts = JSON.parse(fs.readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(texts.map((text) => figures.slug(text))));
