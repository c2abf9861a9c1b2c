// A stand-in for the parts of Google the server's spreadsheet export calls, on 127.0.0.1 and a
// free port, kept in memory so a test can read back what was asked of it:
//
//   POST /token                                   the OAuth grant of a service account (JWT bearer,
//                                                 RS256, checked against the account's public key)
//   POST /v4/spreadsheets                         create a spreadsheet with its sheets
//   POST /v4/spreadsheets/{id}:batchUpdate        updateCells, appendCells, updateDimensionProperties,
//                                                 addChart (a chart over cells of the grid)
//   POST /drive/v3/files/{id}/permissions         share it (a user as writer, or anyone as reader)
//   GET  /spreadsheets/d/{id}/edit                a small page with the title and the first sheet
//
// Every API call needs a token this fake gave (401 UNAUTHENTICATED otherwise). A request that is
// not what Google takes gets Google's 400 INVALID_ARGUMENT, so the server's mistakes show.
import { createServer } from 'node:http';
import { randomBytes, verify, createPublicKey } from 'node:crypto';

export const SHEETS_SCOPES = ['https://www.googleapis.com/auth/spreadsheets', 'https://www.googleapis.com/auth/drive.file'];
const GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);

class BadRequest extends Error {}

function b64json(part) {
  try {
    return JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
}

/**
 * Starts the fake: `{ url, tokenUri, addAccount, grants, rejectedGrants, creates, batchUpdates,
 * permissions, spreadsheets, values, failNext, stop }`.
 *
 * - `addAccount({ clientEmail, privateKeyId, publicKey })`: a service account whose grants are taken.
 * - `grants`: the verified grants `{ header, claims, token, at }`; `rejectedGrants`: `{ reason, at }`.
 * - `creates`, `batchUpdates`, `permissions`: the bodies received (with `spreadsheetId`, `query`).
 * - `spreadsheets`: id → `{ id, title, timeZone, url, sheets: [{ sheetId, title, index, grid, rows, widths, charts }] }`.
 * - `values(id, title)`: a sheet's cells as plain values (`stringValue` / `numberValue`, null when empty).
 * - `failNext(kind, status, times = 1)`: the next `times` `create`, `batchUpdate`, `permission` or
 *   `token` calls fail with `status` (Infinity: until `failNext(kind, 0)`).
 */
export async function startFakeGoogle() {
  const accounts = new Map();
  const tokens = new Map();
  const spreadsheets = new Map();
  const grants = [];
  const rejectedGrants = [];
  const creates = [];
  const batchUpdates = [];
  const permissions = [];
  const requests = [];
  const failures = new Map();
  let url = '';
  let seq = 0;

  const send = (res, status, body, type = 'application/json; charset=UTF-8') => {
    res.writeHead(status, { 'Content-Type': type });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  const googleError = (res, status, message, state) => send(res, status, { error: { code: status, message, status: state } });

  function failing(kind, res) {
    const f = failures.get(kind);
    if (!f) return false;
    if (--f.times <= 0) failures.delete(kind);
    const status = f.status;
    const state = { 400: 'INVALID_ARGUMENT', 403: 'PERMISSION_DENIED', 429: 'RESOURCE_EXHAUSTED' }[status] ?? 'UNAVAILABLE';
    googleError(res, status, 'The request failed (a failure the test asked for).', state);
    return true;
  }

  function authorized(req, res) {
    const m = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
    const t = m ? tokens.get(m[1]) : null;
    if (!t || t.expires < Date.now()) {
      googleError(res, 401, 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.', 'UNAUTHENTICATED');
      return null;
    }
    return t;
  }

  // ---- the OAuth grant -------------------------------------------------------------------
  function grant(req, body, res) {
    const reject = (reason) => {
      rejectedGrants.push({ reason, at: Date.now() });
      send(res, 400, { error: 'invalid_grant', error_description: reason });
    };
    if (!/^application\/x-www-form-urlencoded\b/.test(req.headers['content-type'] ?? '')) return reject(`Content-Type must be application/x-www-form-urlencoded, not ${req.headers['content-type'] ?? 'none'}.`);
    const form = new URLSearchParams(body);
    if (form.get('grant_type') !== GRANT_TYPE) return reject(`Invalid grant_type: ${form.get('grant_type')}`);
    const jwt = form.get('assertion') ?? '';
    const parts = jwt.split('.');
    if (parts.length !== 3) return reject('The assertion is not a JWT.');
    const header = b64json(parts[0]);
    const claims = b64json(parts[1]);
    if (!header || !claims) return reject('The JWT does not decode.');
    if (header.alg !== 'RS256' || header.typ !== 'JWT') return reject(`Unexpected JWT header ${JSON.stringify(header)}.`);
    const account = accounts.get(claims.iss);
    if (!account) return reject(`Invalid issuer: no service account ${claims.iss}.`);
    if (header.kid !== account.privateKeyId) return reject(`Invalid key id ${header.kid}.`);
    const signed = verify('RSA-SHA256', Buffer.from(`${parts[0]}.${parts[1]}`), account.publicKey, Buffer.from(parts[2], 'base64url'));
    if (!signed) return reject('Invalid JWT Signature.');
    if (claims.aud !== `${url}/token`) return reject(`Invalid audience ${claims.aud}.`);
    const scopes = String(claims.scope ?? '').split(' ').filter(Boolean).sort();
    if (JSON.stringify(scopes) !== JSON.stringify([...SHEETS_SCOPES].sort())) return reject(`Unexpected scope "${claims.scope}".`);
    const now = Math.floor(Date.now() / 1000);
    if (!Number.isInteger(claims.iat) || !Number.isInteger(claims.exp)) return reject('iat and exp must be whole seconds.');
    if (claims.iat > now + 60) return reject('The JWT was issued in the future.');
    if (claims.exp <= now) return reject('The JWT has expired.');
    if (claims.exp - claims.iat > 3600) return reject('The JWT lives longer than an hour.');
    const token = `ya29.fake-${randomBytes(18).toString('hex')}`;
    tokens.set(token, { iss: claims.iss, expires: Date.now() + 3_600_000 });
    grants.push({ header, claims, token, at: Date.now() });
    send(res, 200, { access_token: token, expires_in: 3600, token_type: 'Bearer' });
  }

  // ---- Sheets ----------------------------------------------------------------------------
  function cellValue(cell, where) {
    if (cell === null || typeof cell !== 'object') throw new BadRequest(`Invalid value at '${where}': a CellData object is expected.`);
    const v = cell.userEnteredValue;
    if (v === undefined) return { value: null, format: cell.userEnteredFormat ?? null };
    const kinds = Object.keys(v);
    if (kinds.length !== 1 || !['stringValue', 'numberValue', 'boolValue', 'formulaValue'].includes(kinds[0])) {
      throw new BadRequest(`Invalid value at '${where}.user_entered_value': exactly one of stringValue, numberValue, boolValue or formulaValue is expected, got ${JSON.stringify(v)}.`);
    }
    if (kinds[0] === 'numberValue' && (typeof v.numberValue !== 'number' || !Number.isFinite(v.numberValue))) throw new BadRequest(`Invalid value at '${where}.number_value' (${JSON.stringify(v.numberValue)}).`);
    if (kinds[0] === 'stringValue' && typeof v.stringValue !== 'string') throw new BadRequest(`Invalid value at '${where}.string_value' (${JSON.stringify(v.stringValue)}).`);
    const format = cell.userEnteredFormat ?? null;
    if (format?.numberFormat && !['DATE_TIME', 'DATE', 'TIME', 'NUMBER', 'PERCENT', 'TEXT', 'CURRENCY', 'SCIENTIFIC'].includes(format.numberFormat.type)) {
      throw new BadRequest(`Invalid value at '${where}.user_entered_format.number_format.type' (${format.numberFormat.type}).`);
    }
    return { kind: kinds[0], value: v[kinds[0]], format };
  }

  function rowsOf(rows, where) {
    if (!Array.isArray(rows)) throw new BadRequest(`Invalid value at '${where}.rows': a list is expected.`);
    return rows.map((r, i) => {
      if (!r || (r.values !== undefined && !Array.isArray(r.values))) throw new BadRequest(`Invalid value at '${where}.rows[${i}]'.`);
      return (r.values ?? []).map((c, j) => cellValue(c, `${where}.rows[${i}].values[${j}]`));
    });
  }

  function sheetOf(book, sheetId, where) {
    const sheet = book.sheets.find((s) => s.sheetId === sheetId);
    if (!sheet) throw new BadRequest(`Invalid ${where}: No grid with id: ${sheetId}`);
    return sheet;
  }

  function checkFields(fields, where) {
    const want = 'userEnteredValue,userEnteredFormat';
    if (typeof fields !== 'string' || !fields.split(',').map((f) => f.trim()).every((f) => want.split(',').includes(f))) {
      throw new BadRequest(`Invalid ${where}.fields: "${fields}" (expected ${want}).`);
    }
  }

  function lastRowWithData(sheet) {
    for (let i = sheet.rows.length - 1; i >= 0; i--) if ((sheet.rows[i] ?? []).some((c) => c && c.value !== null)) return i;
    return -1;
  }

  function write(sheet, rowIndex, columnIndex, rows, where, grow) {
    rows.forEach((cells, i) => {
      const r = rowIndex + i;
      if (r >= sheet.grid.rowCount) {
        if (!grow) throw new BadRequest(`Invalid ${where}: Range ('${sheet.title}'!R${r + 1}) exceeds grid limits. Max rows: ${sheet.grid.rowCount}, max columns: ${sheet.grid.columnCount}`);
        sheet.grid.rowCount = r + 1;
      }
      if (columnIndex + cells.length > sheet.grid.columnCount) {
        throw new BadRequest(`Invalid ${where}: Range ('${sheet.title}'!R${r + 1}C${columnIndex + cells.length}) exceeds grid limits. Max rows: ${sheet.grid.rowCount}, max columns: ${sheet.grid.columnCount}`);
      }
      const row = (sheet.rows[r] ??= []);
      cells.forEach((c, j) => {
        row[columnIndex + j] = c;
      });
    });
  }

  function create(body, res) {
    if (!body || typeof body !== 'object') throw new BadRequest('Invalid JSON payload received.');
    const title = body.properties?.title;
    if (typeof title !== 'string' || !title) throw new BadRequest('Invalid value at \'spreadsheet.properties.title\': a title is expected.');
    if (!Array.isArray(body.sheets) || body.sheets.length === 0) throw new BadRequest('Invalid value at \'spreadsheet.sheets\': at least one sheet is expected.');
    const seen = new Set();
    const sheets = body.sheets.map((s, i) => {
      const p = s?.properties;
      const where = `spreadsheet.sheets[${i}].properties`;
      if (!p || typeof p.title !== 'string' || !p.title) throw new BadRequest(`Invalid value at '${where}.title'.`);
      if (seen.has(p.title.toLowerCase())) throw new BadRequest(`Invalid requests: A sheet with the name "${p.title}" already exists.`);
      seen.add(p.title.toLowerCase());
      const g = p.gridProperties ?? {};
      for (const k of ['rowCount', 'columnCount']) if (!Number.isInteger(g[k]) || g[k] < 1) throw new BadRequest(`Invalid value at '${where}.grid_properties.${k}' (${g[k]}).`);
      if (g.frozenRowCount !== undefined && (!Number.isInteger(g.frozenRowCount) || g.frozenRowCount < 0 || g.frozenRowCount > g.rowCount)) {
        throw new BadRequest(`Invalid value at '${where}.grid_properties.frozen_row_count' (${g.frozenRowCount}).`);
      }
      return {
        sheetId: Number.isInteger(p.sheetId) ? p.sheetId : i,
        title: p.title,
        index: Number.isInteger(p.index) ? p.index : i,
        grid: { rowCount: g.rowCount, columnCount: g.columnCount, frozenRowCount: g.frozenRowCount ?? 0 },
        rows: [],
        widths: {},
      };
    });
    if (new Set(sheets.map((s) => s.sheetId)).size !== sheets.length) throw new BadRequest('Invalid requests: duplicate sheetId.');
    const id = `fake-${++seq}-${randomBytes(6).toString('hex')}`;
    const book = { id, title, timeZone: body.properties.timeZone ?? null, url: `${url}/spreadsheets/d/${id}/edit`, sheets };
    spreadsheets.set(id, book);
    creates.push({ spreadsheetId: id, body });
    send(res, 200, {
      spreadsheetId: id,
      spreadsheetUrl: book.url,
      properties: { title, timeZone: book.timeZone, locale: 'en_US' },
      sheets: sheets.map((s) => ({ properties: { sheetId: s.sheetId, title: s.title, index: s.index, sheetType: 'GRID', gridProperties: { ...s.grid } } })),
    });
  }

  function batchUpdate(id, body, res) {
    const book = spreadsheets.get(id);
    if (!book) return googleError(res, 404, 'Requested entity was not found.', 'NOT_FOUND');
    if (!body || !Array.isArray(body.requests) || body.requests.length === 0) throw new BadRequest('Invalid JSON payload: requests must be a non-empty list.');
    // Checked (and applied to a copy) first: Google applies all of a batch or none of it.
    const copy = structuredClone(book.sheets);
    const scratch = { ...book, sheets: copy };
    const replies = body.requests.map(() => ({}));
    body.requests.forEach((r, i) => {
      const where = `requests[${i}]`;
      const kinds = Object.keys(r ?? {});
      if (kinds.length !== 1) throw new BadRequest(`Invalid ${where}: exactly one kind of request is expected, got ${JSON.stringify(kinds)}.`);
      const [kind] = kinds;
      const q = r[kind];
      if (kind === 'updateCells') {
        const s = q.start;
        if (!s || !Number.isInteger(s.rowIndex) || !Number.isInteger(s.columnIndex)) throw new BadRequest(`Invalid ${where}.updateCells.start.`);
        checkFields(q.fields, `${where}.updateCells`);
        write(sheetOf(scratch, s.sheetId, `${where}.updateCells`), s.rowIndex, s.columnIndex, rowsOf(q.rows, `${where}.updateCells`), `${where}.updateCells`, false);
      } else if (kind === 'appendCells') {
        checkFields(q.fields, `${where}.appendCells`);
        const sheet = sheetOf(scratch, q.sheetId, `${where}.appendCells`);
        write(sheet, lastRowWithData(sheet) + 1, 0, rowsOf(q.rows, `${where}.appendCells`), `${where}.appendCells`, true);
      } else if (kind === 'updateDimensionProperties') {
        const range = q.range;
        if (!range || !['COLUMNS', 'ROWS'].includes(range.dimension)) throw new BadRequest(`Invalid ${where}.updateDimensionProperties.range.dimension.`);
        const sheet = sheetOf(scratch, range.sheetId, `${where}.updateDimensionProperties`);
        const limit = range.dimension === 'COLUMNS' ? sheet.grid.columnCount : sheet.grid.rowCount;
        if (!Number.isInteger(range.startIndex) || !Number.isInteger(range.endIndex) || range.startIndex < 0 || range.endIndex <= range.startIndex || range.endIndex > limit) {
          throw new BadRequest(`Invalid ${where}.updateDimensionProperties.range: [${range.startIndex}, ${range.endIndex}) of ${limit}.`);
        }
        if (q.fields !== 'pixelSize' || !Number.isInteger(q.properties?.pixelSize) || q.properties.pixelSize < 0) throw new BadRequest(`Invalid ${where}.updateDimensionProperties.properties.`);
        if (range.dimension === 'COLUMNS') for (let c = range.startIndex; c < range.endIndex; c++) sheet.widths[c] = q.properties.pixelSize;
      } else if (kind === 'addChart') {
        const chart = q?.chart;
        const basic = chart?.spec?.basicChart;
        if (!basic || typeof basic.chartType !== 'string') throw new BadRequest(`Invalid ${where}.addChart.chart.spec: a basicChart with its chartType is expected.`);
        const anchor = chart.position?.overlayPosition?.anchorCell;
        if (!anchor) throw new BadRequest(`Invalid ${where}.addChart.chart.position.overlayPosition.anchorCell.`);
        const sheet = sheetOf(scratch, anchor.sheetId, `${where}.addChart`);
        if (anchor.rowIndex >= sheet.grid.rowCount || anchor.columnIndex >= sheet.grid.columnCount) {
          throw new BadRequest(`Invalid ${where}.addChart: the anchor cell (${anchor.rowIndex}, ${anchor.columnIndex}) is outside the grid of '${sheet.title}'.`);
        }
        const ranges = [...(basic.domains ?? []).map((d) => d.domain), ...(basic.series ?? []).map((x) => x.series)].flatMap((d) => d?.sourceRange?.sources ?? []);
        if (ranges.length === 0) throw new BadRequest(`Invalid ${where}.addChart: the chart has no data.`);
        for (const r of ranges) {
          const src = sheetOf(scratch, r.sheetId, `${where}.addChart`);
          if (r.endRowIndex > src.grid.rowCount || r.endColumnIndex > src.grid.columnCount || r.startRowIndex >= r.endRowIndex || r.startColumnIndex >= r.endColumnIndex) {
            throw new BadRequest(`Invalid ${where}.addChart: the range ${JSON.stringify(r)} is outside the grid of '${src.title}'.`);
          }
        }
        const chartId = ++seq;
        (sheet.charts ??= []).push({ chartId, title: chart.spec.title ?? null, chartType: basic.chartType });
        replies[i] = { addChart: { chart: { chartId, spec: chart.spec, position: chart.position } } };
      } else {
        throw new BadRequest(`Invalid ${where}: unknown kind of request "${kind}".`);
      }
    });
    book.sheets = copy;
    batchUpdates.push({ spreadsheetId: id, body });
    send(res, 200, { spreadsheetId: id, replies });
  }

  // ---- Drive -----------------------------------------------------------------------------
  function permission(id, query, body, res) {
    if (!spreadsheets.has(id)) return googleError(res, 404, `File not found: ${id}.`, 'NOT_FOUND');
    const ok =
      body &&
      ((body.type === 'user' && body.role === 'writer' && typeof body.emailAddress === 'string' && /.+@.+/.test(body.emailAddress)) ||
        (body.type === 'anyone' && body.role === 'reader' && body.emailAddress === undefined));
    if (!ok) throw new BadRequest(`Invalid permission ${JSON.stringify(body)}.`);
    const created = { kind: 'drive#permission', id: body.type === 'anyone' ? 'anyoneWithLink' : `perm-${randomBytes(6).toString('hex')}`, type: body.type, role: body.role };
    permissions.push({ fileId: id, query: Object.fromEntries(query), body, id: created.id });
    send(res, 200, created);
  }

  // ---- the spreadsheet's page -------------------------------------------------------------
  function page(id, res) {
    const book = spreadsheets.get(id);
    if (!book) return send(res, 404, '<!doctype html><title>Not found</title><p>No such spreadsheet.</p>', 'text/html; charset=utf-8');
    const first = [...book.sheets].sort((a, b) => a.index - b.index)[0];
    const rows = first.rows
      .map((r) => `<tr>${(r ?? []).map((c) => `<td>${c?.value === null || c?.value === undefined ? '' : escapeHtml(c.value)}</td>`).join('')}</tr>`)
      .join('\n');
    const tabs = [...book.sheets].sort((a, b) => a.index - b.index).map((s) => `<li>${escapeHtml(s.title)}</li>`).join('');
    send(
      res,
      200,
      `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(book.title)} - Google Sheets</title>
<style>body{font:14px system-ui,sans-serif;margin:24px;color:#1f2937}h1{font-size:20px}table{border-collapse:collapse}td{border:1px solid #d1d5db;padding:4px 8px}ul{display:flex;gap:12px;list-style:none;padding:0;color:#4b5563}</style></head>
<body><h1>${escapeHtml(book.title)}</h1><ul aria-label="Sheets">${tabs}</ul><h2>${escapeHtml(first.title)}</h2><table>${rows}</table></body></html>`,
      'text/html; charset=utf-8',
    );
  }

  const server = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const u = new URL(req.url, 'http://127.0.0.1');
      const path = decodeURIComponent(u.pathname);
      requests.push({ method: req.method, path, at: Date.now() });
      try {
        if (req.method === 'POST' && path === '/token') {
          if (failing('token', res)) return;
          return grant(req, raw, res);
        }
        const edit = /^\/spreadsheets\/d\/([^/]+)\/edit$/.exec(path);
        if (req.method === 'GET' && edit) return page(edit[1], res);

        let body = null;
        if (req.method === 'POST') {
          try {
            body = raw ? JSON.parse(raw) : null;
          } catch {
            throw new BadRequest('Invalid JSON payload received.');
          }
        }
        if (req.method === 'POST' && path === '/v4/spreadsheets') {
          if (!authorized(req, res)) return;
          if (failing('create', res)) return;
          return create(body, res);
        }
        const batch = /^\/v4\/spreadsheets\/([^/:]+):batchUpdate$/.exec(path);
        if (req.method === 'POST' && batch) {
          if (!authorized(req, res)) return;
          if (failing('batchUpdate', res)) return;
          return batchUpdate(batch[1], body, res);
        }
        const perm = /^\/drive\/v3\/files\/([^/]+)\/permissions$/.exec(path);
        if (req.method === 'POST' && perm) {
          if (!authorized(req, res)) return;
          if (failing('permission', res)) return;
          return permission(perm[1], u.searchParams, body, res);
        }
        googleError(res, 404, `The fake has no ${req.method} ${path}.`, 'NOT_FOUND');
      } catch (e) {
        if (e instanceof BadRequest) return googleError(res, 400, e.message, 'INVALID_ARGUMENT');
        googleError(res, 500, `The fake failed: ${e.message}`, 'INTERNAL');
      }
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${server.address().port}`;

  return {
    url,
    tokenUri: `${url}/token`,
    addAccount({ clientEmail, privateKeyId, publicKey }) {
      accounts.set(clientEmail, { privateKeyId, publicKey: createPublicKey(publicKey) });
    },
    grants,
    rejectedGrants,
    creates,
    batchUpdates,
    permissions,
    requests,
    spreadsheets,
    /** A sheet's cells as plain values, row by row (null for an empty cell). */
    values(id, title) {
      const sheet = spreadsheets.get(id)?.sheets.find((s) => s.title === title);
      if (!sheet) return null;
      return sheet.rows.map((r) => Array.from({ length: (r ?? []).length }, (_, j) => r[j]?.value ?? null));
    },
    /** The cells themselves (value and format), for checks of typed cells and formats. */
    cells(id, title) {
      return spreadsheets.get(id)?.sheets.find((s) => s.title === title)?.rows ?? null;
    },
    failNext(kind, status = 503, times = 1) {
      if (!status || times <= 0) failures.delete(kind);
      else failures.set(kind, { status, times });
    },
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
