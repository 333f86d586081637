// Load one of the site's browser scripts (rope_viz/site/static/) into a fresh context that has just enough of a
// browser for the script to define its global object; return that object. The pure helpers it exports are
// what the unit tests here call. No page is drawn: nothing of Plotly or of the DOM is emulated beyond stubs.
const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");

const STATIC = path.join(__dirname, "..", "..", "rope_viz", "site", "static");

function load(fileName, globalName) {
  const documentStub = {
    readyState: "loading",
    documentElement: { dataset: {} },
    body: null,
    addEventListener() {},
    createElement() {
      throw new Error("the DOM is not available in the unit tests");
    },
  };
  const windowStub = { document: documentStub, addEventListener() {} };
  const context = vm.createContext({
    window: windowStub,
    document: documentStub,
    console,
    setTimeout,
    clearTimeout,
    performance,
  });
  const code = fs.readFileSync(path.join(STATIC, fileName), "utf8");
  vm.runInContext(code, context, { filename: fileName });
  const exported = windowStub[globalName];
  if (!exported) {
    throw new Error(`${fileName} did not define window.${globalName}`);
  }
  return exported;
}

module.exports = { load };
