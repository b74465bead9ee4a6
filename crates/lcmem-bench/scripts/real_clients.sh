#!/usr/bin/env bash
# The real agent CLIs against lcmem, offline, many sessions in a row: how many sessions get sealed without any
# user action, how many journal lines are false ("no changes made" for a session that wrote a file), and what
# recall finds first after every session asked it the same question.
#
# usage: crates/lcmem-bench/scripts/real_clients.sh LCMEM NODE_MODULES [N]
#   LCMEM         the lcmem binary to measure
#   NODE_MODULES  a node_modules holding @anthropic-ai/claude-code and @openai/codex (npm install)
#   N             sessions per client (default 15)
# The scripted model endpoints are ../shared/agents-kit/fake_anthropic.py and fake_responses.py; every process
# binds or connects to 127.0.0.1 only. Everything lives in a fresh temporary folder.
set -u
LCMEM=$(readlink -f "$1"); BIN=$(readlink -f "$2")/.bin; N=${3:-15}
KIT=$(cd "$(dirname "$0")/../../../../shared/agents-kit" && pwd)
ROOT=$(mktemp -d); export HOME=$ROOT/home; mkdir -p "$HOME" "$ROOT/proj"
STORE=$ROOT/store; export LEVELCODE_HOME=$STORE
cd "$ROOT/proj" && git init -q -b main && printf '# Proj\n' > README.md && git add . &&
  git -c user.email=t@e -c user.name=t commit -qm init
cat > "$ROOT/seed.jsonl" <<'EOF'
{"type":"session","v":1,"id":"seed-notes","title":"Where notes go","created_at":"2026-12-01T09:00:00Z"}
{"type":"message","role":"user","text":"Scratch notes live in notes.txt at the repository root.","ts":"2026-12-01T09:01:00Z"}
{"type":"message","role":"assistant","text":"Noted: scratch notes live in notes.txt at the repository root.","ts":"2026-12-01T09:02:00Z"}
EOF
"$LCMEM" import "$ROOT/seed.jsonl" > /dev/null && "$LCMEM" seal --all > /dev/null && "$LCMEM" consolidate > /dev/null
"$LCMEM" config set memory.quiet_secs 0 > /dev/null
"$LCMEM" install claude-code > /dev/null && "$LCMEM" install codex > /dev/null

python3 "$KIT/fake_anthropic.py" --port 18180 --log "$ROOT/anthropic.jsonl" --project "$ROOT/proj" \
  --max-seconds 1800 2> /dev/null &
python3 "$KIT/fake_responses.py" --port 18182 --log "$ROOT/responses.jsonl" --max-seconds 1800 2> /dev/null &
trap 'kill $(jobs -p) 2>/dev/null' EXIT
sleep 1
for i in $(seq "$N"); do
  rm -f notes.txt
  ANTHROPIC_BASE_URL=http://127.0.0.1:18180 ANTHROPIC_API_KEY=dummy CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 \
    DISABLE_AUTOUPDATER=1 timeout 120 "$BIN/claude" -p "add a notes file" --output-format json \
    --allowedTools Write mcp__lcmem__recall_sessions > /dev/null 2>&1
  rm -f notes.txt
  FAKE_KEY=dummy timeout 120 "$BIN/codex" exec --json -m gpt-5-codex --dangerously-bypass-hook-trust \
    -c model_provider='"fake"' \
    -c 'model_providers.fake={name="fake",base_url="http://127.0.0.1:18182/v1",wire_api="responses",env_key="FAKE_KEY"}' \
    -s workspace-write "add a notes file" > /dev/null 2>&1
done
# The later session start that seals the last ones: each agent's SessionStart hook, as the next session fires it.
sleep 1
folder=$(dirname "$(find "$HOME/.claude/projects" -name '*.jsonl' | head -1)")
for agent in claude-code codex; do
  printf '{"hook_event_name":"SessionStart","source":"startup","cwd":"%s","transcript_path":"%s/next.jsonl","session_id":"next"}' \
    "$ROOT/proj" "$folder" | "$LCMEM" hook "$agent" > /dev/null
done
sleep 5
recorded_claude=$(find "$HOME/.claude/projects" -name '*.jsonl' | wc -l)
recorded_codex=$(find "$HOME/.codex/sessions" -name '*.jsonl' | wc -l)
python3 - "$LCMEM" "$recorded_claude" "$recorded_codex" <<'EOF'
import json, subprocess, sys
lcmem, claude, codex = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
journal = json.loads(subprocess.check_output([lcmem, "journal", "--json"]))
sessions = json.loads(subprocess.check_output([lcmem, "sessions", "--json"]))
agent = [e for e in journal if e["session_id"] != "seed-notes"]
false = [e for e in agent if "no changes made" in e["summary"].lower() or "notes.txt" not in json.dumps(e)]
hits = json.loads(subprocess.check_output([lcmem, "recall", "--json", "where do scratch notes go"]))
echo = [h for h in hits if "hit(s) for" in h.get("snippet", "")]
print(f"sessions recorded: {claude} Claude Code, {codex} Codex; imported: {len(sessions) - 1}")
print(f"sealed with no user action: {len(agent)} of {claude + codex}")
print(f"journal lines that miss notes.txt or say no changes: {len(false)}")
for e in false:
    print("  ", e["session_id"], "|", e["summary"][:160])
print(f"recall top hit: {hits[0]['session'] if hits else None}; hits that are earlier recall answers: {len(echo)} of {len(hits)}")
EOF
