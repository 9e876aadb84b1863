// Lanterloo: run web/compile_inpage.py in Pyodide under Node.js, at build time (web/build_inpage.py).
//
// Usage: node web/compile_inpage.mjs <Pyodide's folder> <work folder>
// The work folder (holding compile_inpage.py and its inputs) is mounted in Pyodide at /work.
import path from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, work] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(path.join(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: path.resolve(pyodideDir) + "/", fullStdLib: false });
pyodide.FS.mkdirTree("/work");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: path.resolve(work) }, "/work");
try {
  pyodide.runPython("import runpy, sys; sys.argv = ['compile_inpage.py', '/work']; runpy.run_path('/work/compile_inpage.py', run_name='__main__')");
} catch (error) {
  console.error(String(error.message || error));
  process.exit(1);
}
