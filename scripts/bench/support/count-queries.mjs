/*
 * Preloaded into the server by page-cost.ts (`node --import`): every query node-postgres
 * answers is appended to QUERY_LOG, one line each (its time, rows, the rows' JSON size and its
 * text) while logging is switched on by a SIGUSR2 (and off by the next), so a page's queries
 * can be counted and weighed (QUERY_LOG_FULL=<file> also keeps each text whole with its
 * parameters, to explain). A measuring aid only; never loaded by
 * the product.
 */
import fs from "node:fs";
import { createRequire } from "node:module";

const require = createRequire(`${process.cwd()}/package.json`);
const pg = require("pg");
const file = process.env.QUERY_LOG;
/** Logging is on only between two SIGUSR2s, so the CPU measured under load is not its own. */
let out = null;
process.on("SIGUSR2", () => {
  out = out ? null : file;
});
const query = pg.Client.prototype.query;
function log(started, name, text, result, params) {
  if (!out) return;
  const rows = result?.rows ?? [];
  const line = [
    `${(performance.now() - started).toFixed(2)}ms`,
    `rows=${rows.length}`,
    `bytes=${JSON.stringify(rows).length}`,
    name ? `[${name}]` : "",
    String(text).replace(/\s+/g, " ").slice(0, 140),
  ].join(" ");
  if (process.env.QUERY_LOG_FULL) {
    fs.appendFileSync(process.env.QUERY_LOG_FULL, `${JSON.stringify({ text, params })}\n`);
  }
  fs.appendFileSync(out, `${line}\n`);
}

pg.Client.prototype.query = function (config, values, callback) {
  const text = typeof config === "string" ? config : (config?.text ?? "");
  const name = typeof config === "object" && config ? config.name : undefined;
  const started = performance.now();
  const queryParams = Array.isArray(values) ? values : config?.values;
  // node-postgres takes a callback as its last argument (the pool passes one) or answers a promise.
  if (typeof values === "function") {
    const done = values;
    return query.call(this, config, (error, result) => {
      if (!error) log(started, name, text, result, queryParams);
      done(error, result);
    });
  }
  if (typeof callback === "function") {
    return query.call(this, config, values, (error, result) => {
      if (!error) log(started, name, text, result, queryParams);
      callback(error, result);
    });
  }
  if (typeof config?.callback === "function") {
    const done = config.callback;
    config.callback = (error, result) => {
      if (!error) log(started, name, text, result, queryParams);
      done(error, result);
    };
    return query.call(this, config, values);
  }
  const answer = query.call(this, config, values);
  if (answer && typeof answer.then === "function")
    answer.then(
      (result) => log(started, name, text, result, queryParams),
      () => {},
    );
  return answer;
};
