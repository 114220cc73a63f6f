// Run a Python script under the real MicroPython (WebAssembly port) with the
// firmware tree mounted, as it would be on the Pico's filesystem root.
//
//   node tests/mp_run.mjs [--mount DIR:/path]... [--heap 4m] SCRIPT.py [ARGS...]
//
// By default firmware/ is mounted at /fw and tests/mp at /tests; sys.path gets
// both, and sys.argv is set to [SCRIPT, ARGS...]. The exit code is 0 when the
// script ends normally, 1 on an uncaught exception (the traceback goes to
// stderr), and the script's own code on SystemExit.
import fs from "fs";
import path from "path";
import { fileURLToPath } from "url";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");

function copyTree(FS, hostDir, mpDir) {
  try { FS.mkdir(mpDir); } catch (e) { /* exists */ }
  for (const name of fs.readdirSync(hostDir)) {
    if (name === "__pycache__" || name.startsWith(".")) continue;
    const src = path.join(hostDir, name);
    const dst = mpDir + "/" + name;
    const st = fs.statSync(src);
    if (st.isDirectory()) copyTree(FS, src, dst);
    else if (name.endsWith(".py") || name.endsWith(".json") || name.endsWith(".txt")) {
      FS.writeFile(dst, fs.readFileSync(src));
    }
  }
}

const args = process.argv.slice(2);
const mounts = [[path.join(root, "firmware"), "/fw"], [path.join(root, "tests", "mp"), "/tests"]];
let heap = 8 * 1024 * 1024;
while (args.length && args[0].startsWith("--")) {
  const opt = args.shift();
  if (opt === "--mount") {
    const [host, mp] = args.shift().split(":");
    mounts.push([path.resolve(host), mp]);
  } else if (opt === "--heap") {
    const v = args.shift().toLowerCase();
    heap = parseInt(v) * (v.endsWith("m") ? 1048576 : v.endsWith("k") ? 1024 : 1);
  } else {
    console.error("mp_run: unknown option " + opt);
    process.exit(2);
  }
}
if (!args.length) {
  console.error("usage: node tests/mp_run.mjs [--mount DIR:/path] [--heap N] SCRIPT.py [ARGS...]");
  process.exit(2);
}
const script = args[0];
let out = "";
const mp = await loadMicroPython({
  heapsize: heap,
  stdout: (line) => process.stdout.write(line + "\n"),
  stderr: (line) => process.stderr.write(line + "\n"),
});
for (const [host, mpDir] of mounts) copyTree(mp.FS, host, mpDir);
const scriptDir = path.dirname(path.resolve(script));
copyTree(mp.FS, scriptDir, "/script");
const argv = JSON.stringify([script, ...args.slice(1)]);
const setup = `
import sys
sys.path[:0] = ['/script', '/fw', '/tests']
sys.argv[:] = ${argv}
`;
let code = 0;
try {
  mp.runPython(setup);
  mp.runPython(fs.readFileSync(script, "utf8"));
} catch (error) {
  if (error.name !== "PythonError") throw error;
  if (error.type === "SystemExit") {
    const m = /(-?\d+)\s*$/.exec(error.message || "");
    code = m ? parseInt(m[1]) : 0;
  } else {
    process.stderr.write(error.message + "\n");
    code = 1;
  }
}
process.exit(code);
