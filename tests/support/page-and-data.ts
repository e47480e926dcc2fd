import { dataPathOf } from "./admin-routes.ts";
import { isResourceAddress } from "./route-walk.ts";
import type { HttpResponse } from "./server-process.ts";

/**
 * The answers a leak matrix reads for one address: the page and, unless it is a file, its route data (what a
 * client-side navigation fetches). A matrix that looks for what must be absent proves nothing if it reads the wrong
 * address: `/_root.data` answered a 404 whatever the gallery held, and every matrix passed (issue 42). So the data
 * must also show each word the page shows to this reader (`shown`: the words of what the reader may see); a data
 * address that shows less than its page is named in `blind`, and the matrix fails on it as on a leak.
 */
export async function pageAndData(
  get: (path: string) => Promise<HttpResponse>,
  address: string,
  shown: readonly string[],
  blind: string[],
): Promise<[path: string, response: HttpResponse][]> {
  const page = await get(address);
  if (isResourceAddress(address)) return [[address, page]];
  const dataPath = dataPathOf(address);
  const data = await get(dataPath);
  for (const word of shown) {
    if (page.body.includes(word) && !data.body.includes(word))
      blind.push(`${dataPath} lacks ${word}, which ${address} shows`);
  }
  return [
    [address, page],
    [dataPath, data],
  ];
}
