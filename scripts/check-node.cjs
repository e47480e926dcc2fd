// Stops at once, with one line, on a Node.js older than the one Vitrine needs. Run as `npm install`'s preinstall
// script and as the first thing server.js loads: on Node 20 the SQLite driver built for Node 24 otherwise ends
// the process with a bare "Segmentation fault", after a full build.
// Written in old JavaScript on purpose (CommonJS, `var`, nothing newer than Node 4 parses): it must run on the Node
// versions it turns away. Keep the major version in step with "engines" in package.json.
"use strict";

var REQUIRED_MAJOR = 24;

var major = Number(process.versions.node.split(".")[0]);
if (!(major >= REQUIRED_MAJOR)) {
  // stderr, not a log: npm's loglevel=silent (.npmrc) hides npm's own messages but not what a script writes.
  process.stderr.write(`Vitrine needs Node.js ${REQUIRED_MAJOR} or newer; this is ${process.version}.\n`);
  process.exit(1);
}
