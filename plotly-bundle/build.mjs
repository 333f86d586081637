// Build rope_viz/site/static/plotly-rope-viz.min.js from entry.js with esbuild, as plotly.js builds its own
// bundles (esbuild-config.js in its package: an IIFE named Plotly, `global` as `window`, no AMD, ES2016), and
// give it plotly.js's banner and wrapper (below), the banner naming the trace types, the plotly.js and esbuild
// versions. Run by `./dev.sh plotly` after `npm ci` here; the same inputs give the same file byte for byte.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as esbuild from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const output = join(here, "..", "rope_viz", "site", "static", "plotly-rope-viz.min.js");
const plotlyVersion = require("plotly.js/package.json").version;
// The copyright line of plotly.js's own bundles, for the same code.
const copyright = readFileSync(require.resolve("plotly.js/dist/plotly-basic.min.js"), "utf8")
  .split("\n")
  .find((line) => line.startsWith("* Copyright"));
const traces = ["scatter", "bar", "heatmap"];
const banner = [
  "/**",
  `* plotly.js (${traces.join(", ")} - minified) v${plotlyVersion}`,
  copyright,
  "* All rights reserved.",
  "* Licensed under the MIT license",
  `* Built for rope-viz by plotly-bundle/build.mjs with esbuild ${esbuild.version} (Plotly's core, bar, heatmap).`,
  "*/",
].join("\n");

// As plotly.js's own bundles do, the IIFE goes inside a UMD wrapper that returns Plotly and sets it on the
// window: its "use strict" then holds for plotly.js alone, and Plotly is global wherever the bundle runs (a
// page's classic script, or the function in which the live widgets' module runs the figure scripts). The
// factory is in parentheses, which V8 takes as a sign to compile it at once: passed bare, as plotly.js's own
// bundles pass it, the whole bundle is parsed twice, lazily and then for its call (evaluation 0.15 to 0.2 s
// instead of 0.08 to 0.14 s here).
const opening = [
  "(function (root, factory) {",
  '  if (typeof module === "object" && module.exports) {',
  "    module.exports = factory();",
  "  } else {",
  "    root.Plotly = factory();",
  "  }",
  '}(typeof self !== "undefined" ? self : this, (function () {',
].join("\n");
const closing = "\nwindow.Plotly = Plotly;\nreturn Plotly;\n})));\n";

const result = await esbuild.build({
  entryPoints: [join(here, "entry.js")],
  bundle: true,
  minify: true,
  format: "iife",
  globalName: "Plotly",
  target: "es2016",
  define: { global: "window", "define.amd": "false" },
  // Plotly's registry imports the map subplots' style sheet; this bundle registers no map trace.
  loader: { ".css": "empty" },
  write: false,
  logLevel: "warning",
});
const text = [banner, opening, result.outputFiles[0].text.trimEnd(), closing].join("\n");
writeFileSync(output, text);
console.log(`${output}: ${Buffer.byteLength(text)} bytes`);
