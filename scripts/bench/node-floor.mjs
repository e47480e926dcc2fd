// The bench's yardstick for what any Node.js process answers on one core: Node's own `node:http` and nothing else,
// sending the very bytes the app's page cache sends (the pages in the JSON file NODE_FLOOR_PAGES, path → HTML) with
// the headers a plain answer needs. No framework, no log line, no lookup but a Map's. Plain JavaScript: it runs
// without a compiler, as the production build does.
import fs from "node:fs";
import http from "node:http";

const pages = JSON.parse(fs.readFileSync(process.env.NODE_FLOOR_PAGES ?? "", "utf8"));
const bodies = new Map(Object.entries(pages).map(([path, html]) => [path, Buffer.from(html)]));

http
  .createServer((req, res) => {
    const body = bodies.get(req.url);
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Length": body.length });
    res.end(body);
  })
  .listen(Number(process.env.PORT), "127.0.0.1");
