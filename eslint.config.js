// ESLint for the course's own JavaScript: the site's figure scripts (classic browser scripts) and the live
// widget's front end (an ES module that anywidget loads). The minified plotly.js bundle is not ours.
const js = require("@eslint/js");
const globals = require("globals");

module.exports = [
  {
    ignores: ["**/*.min.js", "**/node_modules/**", "_build/**", "build/**", ".venv*/**", "test-artifacts/**"],
  },
  js.configs.recommended,
  {
    files: ["rope_viz/site/static/**/*.js"],
    languageOptions: {
      ecmaVersion: 2020,
      sourceType: "script",
      globals: { ...globals.browser, Plotly: "readonly" },
    },
  },
  {
    files: ["rope_viz/widgets/static/**/*.js"],
    languageOptions: { ecmaVersion: "latest", sourceType: "module", globals: { ...globals.browser } },
  },
  {
    files: ["plotly-bundle/build.mjs"],
    languageOptions: { ecmaVersion: "latest", sourceType: "module", globals: { ...globals.node } },
  },
  {
    files: ["eslint.config.js", "tests/js/**/*.js", "plotly-bundle/entry.js"],
    languageOptions: { ecmaVersion: "latest", sourceType: "commonjs", globals: { ...globals.node } },
  },
];
