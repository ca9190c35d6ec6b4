// Hotplug tests in Node's own test runner (`node --test examples/node/hotplug.test.mjs`), each on a lease
// of one warm `multihead server`: plug a second monitor, list the screens, run an X client against it,
// unplug. MULTIHEAD_BIN names the CLI (default: multihead on PATH). The server is the CLI's default kind
// (Xorg with Multihead's driver where it can start, else Xvfb): the tests read its layout's names from it.
import { after, afterEach, before, beforeEach, test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { MultiheadServer } from "./multihead.mjs";

let server;
let lease;
before(async () => { server = await MultiheadServer.start(); });
after(async () => { await server.stop(); });
beforeEach(async () => { lease = await server.lease(["1920x1080"]); });
afterEach(async () => { await lease.release(); });

test("a plugged monitor is a screen every X client sees", async () => {
  const before = (await lease.request("screens")).screens.map((s) => s.name);
  assert.equal(before.length, 1);
  await lease.request("plug", { name: "EXT-1", geometry: "1280x720+1920+0" });
  const { screens } = await lease.request("screens");
  assert.deepEqual(screens.map((s) => s.name), [...before, "EXT-1"]);
  const listed = execFileSync("xrandr", ["--listmonitors"], { env: lease.env, encoding: "utf8" });
  assert.match(listed, /EXT-1/);
  await lease.request("unplug", { name: "EXT-1" });
});

test("the next test finds the server fresh, on the same X server", async () => {
  const { screens } = await lease.request("screens");
  assert.deepEqual(screens.map((s) => s.frame.width), [1920]);
  assert.equal(lease.warm, true);
  assert.equal(lease.replaced, false);
});

test("a refusal carries the command line's status and a stable code", async () => {
  await assert.rejects(lease.request("plug", { name: "EXT-1", geometry: "12x" }),
                       (e) => e.status === 64 && e.code === "usage");
  await assert.rejects(server.request("fly"), (e) => e.code === "unknownRequest");
});

test("a lease that has ended acts on nothing", async () => {
  const old = lease;
  lease = await server.lease(["1920x1080"]);
  assert.notEqual(lease.id, old.id);
  await assert.rejects(old.request("plug", { name: "EXT-1", geometry: "1280x720+1920+0" }),
                       (e) => e.status === 64 && e.code === "noLease");
  await assert.rejects(old.release(), (e) => e.code === "noLease");
  const { screens } = await lease.request("screens");
  assert.deepEqual(screens.map((s) => s.frame.width), [1920]);
});
