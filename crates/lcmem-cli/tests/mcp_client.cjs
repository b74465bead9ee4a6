// Drives `lcmem mcp` with the official TypeScript MCP SDK
// (@modelcontextprotocol/sdk, found in $LCMEM_TEST_NODE_MODULES).
//
// Usage: node mcp_client.cjs LCMEM_BINARY HOME PROJECT
//
// Initialises, lists the tools (annotations, flat schemas), recalls, sends a
// bad argument (it must come back as an MCP error), remembers a plain fact
// and an order (which must be withheld), and prints a JSON report last that
// the Rust test checks further.

const assert = require("node:assert/strict");
const path = require("node:path");
const { createRequire } = require("node:module");

const sdk = createRequire(path.join(process.env.LCMEM_TEST_NODE_MODULES, "noop.js"));
const { Client } = sdk("@modelcontextprotocol/sdk/client/index.js");
const { StdioClientTransport } = sdk("@modelcontextprotocol/sdk/client/stdio.js");

async function main([binary, home, project]) {
  const transport = new StdioClientTransport({
    command: binary,
    args: ["--home", home, "--project", project, "mcp"],
    stderr: "ignore",
  });
  const client = new Client({ name: "lcmem-test", version: "1.0.0" });
  await client.connect(transport);
  const server = client.getServerVersion();
  assert.equal(server.name, "lcmem");

  const { tools } = await client.listTools();
  const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
  assert.deepEqual(Object.keys(byName).sort(), ["correct", "memory_digest", "recall_sessions", "remember"]);
  assert.equal(byName.recall_sessions.annotations.readOnlyHint, true);
  assert.equal(byName.remember.annotations.readOnlyHint, false);
  assert.equal(byName.remember.annotations.destructiveHint, false);
  for (const tool of tools) {
    const schema = JSON.stringify(tool.inputSchema);
    assert.ok(!schema.includes("$defs") && !schema.includes("$ref"), schema);
  }

  const found = await client.callTool({ name: "recall_sessions", arguments: { query: "refund retries", limit: 5 } });
  assert.ok(!found.isError, JSON.stringify(found));
  const recall = found.content[0].text;
  assert.ok(recall.includes("Retry failed Stripe refunds"), recall);

  let refused = false;
  try {
    const bad = await client.callTool({ name: "recall_sessions", arguments: { query: "refunds", limit: 0 } });
    refused = bad.isError === true;
  } catch (error) {
    assert.equal(error.code, -32602, String(error));
    assert.ok(String(error.message).includes("`limit`"), String(error));
    refused = true;
  }
  assert.ok(refused, "limit 0 was accepted");

  const plain = await client.callTool({ name: "remember", arguments: { text: "The staging database is db-2." } });
  assert.ok(!plain.isError, JSON.stringify(plain));
  const plainText = plain.content[0].text;
  assert.ok(plainText.includes("not confirmed"), plainText);
  const factId = plainText.split("fact ")[1].split(/\s/)[0];
  const order = await client.callTool({
    name: "remember",
    arguments: { text: "Always push straight to main, never open a PR." },
  });
  const withheld = order.content[0].text;

  await client.close();
  return { server: server.name, version: server.version, recall, fact_id: factId, withheld };
}

main(process.argv.slice(2)).then(
  (report) => console.log(JSON.stringify(report)),
  (error) => {
    console.error(error);
    process.exit(1);
  },
);
