import { randomBytes } from "node:crypto";
import http from "node:http";
import type { HttpResponse, ServerProcess } from "./server-process.ts";

export type FilePart = { field: string; filename: string; type: string; data: Buffer };

/** A multipart/form-data body as a browser sends it. */
export function multipartBody(files: FilePart[], fields: Record<string, string> = {}) {
  const boundary = `----vitrine-${randomBytes(8).toString("hex")}`;
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const file of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.filename}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.data,
      Buffer.from("\r\n"),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Posts files as multipart/form-data from the server's own origin; redirects are not followed. */
export function postMultipart(
  server: ServerProcess,
  pathname: string,
  files: FilePart[],
  options: { cookie?: string; accept?: string; fields?: Record<string, string> } = {},
): Promise<HttpResponse> {
  const { body, contentType } = multipartBody(files, options.fields);
  const headers: Record<string, string> = {
    "Content-Type": contentType,
    "Content-Length": String(body.length),
    Origin: server.origin,
  };
  if (options.cookie) headers.Cookie = options.cookie;
  if (options.accept) headers.Accept = options.accept;
  return new Promise((resolve, reject) => {
    const outgoing = http.request(server.url(pathname), { method: "POST", headers, agent: false }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        text += chunk;
      });
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: text,
          cookies: response.headers["set-cookie"] ?? [],
        }),
      );
      response.on("error", reject);
    });
    // The server may answer (413) before the whole body is sent and close the connection.
    outgoing.on("error", reject);
    outgoing.end(body);
  });
}
