// A client of Multihead's control socket in Node, with nothing but Node's own modules: the protocol of
// docs/control-socket.md (one JSON line a request, one JSON line its answer) and a warm server for a test
// file, as the pytest plugin keeps one per worker.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import net from "node:net";

/** A `multihead server` started for this process (it ends when this process ends), and its socket. */
export class MultiheadServer {
  static async start(binary = process.env.MULTIHEAD_BIN || "multihead", args = []) {
    const child = spawn(binary, ["server", ...args], { stdio: ["ignore", "pipe", "inherit"] });
    const values = {};
    for await (const line of createInterface({ input: child.stdout })) {
      const at = line.indexOf("=");
      values[line.slice(0, at)] = line.slice(at + 1);
      if ("MULTIHEAD_PID" in values) break;
    }
    if (!values.MULTIHEAD_CONTROL) throw new Error(`${binary} server printed no MULTIHEAD_CONTROL`);
    const server = new MultiheadServer(child, values.MULTIHEAD_CONTROL);
    await server.connect();
    return server;
  }

  constructor(child, path) {
    this.child = child;
    this.path = path;
    this.waiting = [];
    this.buffer = "";
  }

  connect() {
    return new Promise((resolve, reject) => {
      this.socket = net.createConnection(this.path, resolve);
      this.socket.once("error", reject);
      this.socket.setEncoding("utf8");
      this.socket.on("data", (chunk) => {
        this.buffer += chunk;
        let end;
        while ((end = this.buffer.indexOf("\n")) >= 0) {
          const answer = JSON.parse(this.buffer.slice(0, end));
          this.buffer = this.buffer.slice(end + 1);
          this.waiting.shift()(answer);
        }
      });
    });
  }

  /** Sends one request; resolves with the answer, or rejects with its error (status, code, message). */
  request(request, fields = {}) {
    return new Promise((resolve, reject) => {
      this.waiting.push((answer) => {
        if (answer.ok) return resolve(answer);
        const e = new Error(`${request}: ${answer.error.message}`);
        Object.assign(e, answer.error);
        reject(e);
      });
      this.socket.write(JSON.stringify({ request, ...fields }) + "\n");
    });
  }

  /** A lease for one test: DISPLAY and XAUTHORITY of its own, the server reset to fresh (see `Lease`). */
  async lease(monitors) {
    return new Lease(this, await this.request("lease", monitors ? { monitors } : {}));
  }

  async stop() {
    this.socket.end();
    const ended = new Promise((resolve) => this.child.once("exit", resolve));
    this.child.kill("SIGTERM");
    return ended;
  }
}

/** One test's lease: `display`, `xauthority`, `pid`, `warm`, `replaced`, `reason` as the `lease` answer has
 * them, `env` for X clients, and `id`, the lease's identity, which every request made here carries: once
 * another lease has begun, the server refuses this one's requests (`noLease`) and does nothing. */
export class Lease {
  constructor(server, answer) {
    this.server = server;
    this.id = answer.lease;
    for (const key of ["display", "xauthority", "pid", "warm", "replaced", "reason"]) this[key] = answer[key];
    this.env = { ...process.env, DISPLAY: answer.display, XAUTHORITY: answer.xauthority };
    delete this.env.MULTIHEAD_CONTROL;
  }

  /** A request on this lease (`plug`, `unplug`, `mode`, `screens`, `screenshot`, `pixel`). */
  request(request, fields = {}) {
    return this.server.request(request, { ...fields, lease: this.id });
  }

  /** Ends this lease (a lease that has already ended releases nothing: `noLease`). */
  release() {
    return this.request("release");
  }
}
