// Drives the OpenCode plugin hermes-hooks install writes, as OpenCode
// does: import it, call its export with the plugin context, then its
// tool.execute.before / after hooks. Prints one JSON line per call.
// usage: node opencode_driver.mjs PLUGIN.js PROJECT_DIR
const [plugin, directory] = process.argv.slice(2);
const mod = await import(plugin);
const hooks = await mod.HermesHooks({ directory, worktree: directory });
const calls = [
  ["before", "rm", "bash", { command: "rm -rf /", description: "clean up" }],
  ["before", "ls", "bash", { command: "ls", description: "list" }],
  ["before", "edit", "edit", { filePath: "/p/a.txt", oldString: "a", newString: "b" }],
  // The guard's rewrite leaves replace_all out: the tool must not get it.
  ["before", "edit_all", "edit", { filePath: "/p/a.txt", oldString: "a", newString: "b", replaceAll: true }],
  // OpenCode's apply_patch (Codex's patch envelope): an Edit guard sees it.
  ["before", "patch", "apply_patch", { patchText: "*** Begin Patch\n*** Update File: /p/.env\n@@\n-A=1\n+A=2\n*** End Patch" }],
  ["before", "patch_rewrite", "apply_patch", { patchText: "*** Begin Patch\n*** Add File: /p/rewrite-me\n+x\n*** End Patch" }],
  ["before", "patch_unpatch", "apply_patch", { patchText: "*** Begin Patch\n*** Add File: /p/unpatch-me\n+x\n*** End Patch" }],
  // A decoy in Claude Code's spelling beside the argument the tool reads.
  ["before", "decoy", "read", { filePath: "/p/.env", file_path: "/p/notes.txt" }],
  ["after", "after", "bash", { command: "ls" }],
];
for (const [when, name, tool, args] of calls) {
  const input = { tool, sessionID: "ses_1", callID: "call_" + name };
  const res = { name };
  try {
    if (when === "before") {
      const output = { args };
      await hooks["tool.execute.before"](input, output);
      res.args = output.args;
    } else {
      const output = { title: "ls", output: "a.txt\n", metadata: {} };
      await hooks["tool.execute.after"]({ ...input, args }, output);
      res.output = output.output;
    }
  } catch (e) {
    res.threw = e.message;
  }
  console.log(JSON.stringify(res));
}
