// Minimal static file server for the built site (correct MIME types for .wasm and .mjs, which
// python's http.server gets wrong on some systems). Binds to 127.0.0.1 only. Where the build wrote
// a precompressed FILE.gz no older than FILE (scripts/build-web.sh), a browser that accepts gzip
// gets it with Content-Encoding: gzip.
// CLI: node scripts/static-server.mjs DIR [PORT]      Module: serveStatic(dir, port) -> server
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const kTypes = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.wasm': 'application/wasm', '.css': 'text/css', '.json': 'application/json',
  '.png': 'image/png', '.svg': 'image/svg+xml', '.txt': 'text/plain; charset=utf-8',
};

// FILE.gz when it exists and is not older than FILE, else null.
function precompressed(file) {
  try {
    const gz = file + '.gz';
    return fs.statSync(gz).mtimeMs >= fs.statSync(file).mtimeMs ? gz : null;
  } catch {
    return null;
  }
}

export function serveStatic(dir, port = 0) {
  const root = path.resolve(dir);
  const server = http.createServer((req, res) => {
    const urlPath = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let file = path.join(root, path.normalize(urlPath));
    if (!file.startsWith(root)) { res.writeHead(403).end(); return; }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    const gz = precompressed(file);
    const gzip = gz && /\bgzip\b/.test(req.headers['accept-encoding'] || '');
    const served = gzip ? gz : file;
    fs.readFile(served, (err, data) => {
      if (err) { res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found'); return; }
      const headers = { 'Content-Type': kTypes[path.extname(file)] || 'application/octet-stream',
                        'Cache-Control': 'no-cache' };
      if (gz) headers.Vary = 'Accept-Encoding';
      if (gzip) headers['Content-Encoding'] = 'gzip';
      // Only the embed card may be framed by other sites (blogs); the calculator may not.
      headers['Content-Security-Policy'] = path.basename(file) === 'embed.html' ? 'frame-ancestors *' : "frame-ancestors 'self'";
      // A validator, so a browser that has the file revalidates it (no-cache) and gets 304 Not
      // Modified: it keeps its copy, and for the .wasm the code it compiled from it.
      const stat = fs.statSync(served);
      headers.ETag = `"${gzip ? 'gz-' : ''}${stat.size}-${Math.floor(stat.mtimeMs)}"`;
      if (req.headers['if-none-match'] === headers.ETag) {
        res.writeHead(304, headers).end();
        return;
      }
      res.writeHead(200, headers);
      res.end(data);
    });
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const dir = process.argv[2] || '.';
  const server = await serveStatic(dir, Number(process.argv[3] || 8080));
  console.log(`Serving ${path.resolve(dir)} at http://127.0.0.1:${server.address().port}/  (Ctrl+C stops)`);
}
