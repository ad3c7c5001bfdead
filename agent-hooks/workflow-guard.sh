#!/bin/sh
# workflow-guard.sh — "plan first" for coding agents, one script on four
# events, using the runtime extension replies and per-session state:
#
#   transform_user_input  "/plan <task>" is rewritten into an instruction to
#                         write the plan to plans/active/plan.md.
#   pre_llm_call          injects a system reminder: write the plan / read the
#                         plan / follow the plan, depending on where the
#                         session is.
#   pre_tool_call         write_file and patch outside plans/ are blocked
#                         until plans/active/plan.md exists; reading the plan
#                         is recorded in the session's state (plan_read).
#   on_session_end        nothing to do: the dispatcher clears the state.
#
# Paths are relative to the payload's cwd (the agent's project). Needs jq.
set -u

if ! command -v jq >/dev/null 2>&1; then
	echo "workflow-guard: jq is required (apt-get install jq)" >&2
	exit 1
fi
payload=$(cat)

field() { printf '%s' "$payload" | jq -r "$1 // empty"; }

event=$(field '.hook_event_name')
cwd=$(field '.cwd')
[ -n "$cwd" ] || cwd=$PWD
plan=plans/active/plan.md
plan_exists=false
[ -f "$cwd/$plan" ] && plan_exists=true
plan_read=$(field '.extra.state.plan_read')

case $event in
transform_user_input)
	message=$(field '.extra.user_message')
	case $message in
	"/plan "*)
		task=${message#/plan }
		jq -cn --arg task "$task" --arg plan "$plan" \
			'{action: "rewrite", value: ("Write a plan for: " + $task + ". Save it as " + $plan + " before changing any code.")}'
		;;
	esac
	;;

pre_llm_call)
	if [ "$plan_exists" = false ]; then
		reminder="No plan yet: write $plan first. Writes outside plans/ are blocked until it exists."
	elif [ "$plan_read" != true ]; then
		reminder="A plan exists: read $plan before continuing."
	else
		reminder="Follow $plan; update it when the plan changes."
	fi
	jq -cn --arg r "$reminder" '{action: "inject_system", value: $r}'
	;;

pre_tool_call)
	tool=$(field '.tool_name')
	path=$(field '.tool_input.path')
	[ -n "$path" ] || path=$(field '.tool_input.file_path')
	# Compare paths relative to the project, whichever way they were given.
	rel=${path#"$cwd"/}
	rel=${rel#./}
	case $tool in
	read_file)
		if [ "$rel" = "$plan" ]; then
			echo '{"action": "pass", "state": {"plan_read": true}}'
		fi
		;;
	write_file | patch)
		case $rel in
		plans/*) ;; # writing the plan itself is always fine
		*)
			if [ "$plan_exists" = false ]; then
				jq -cn --arg p "$path" --arg plan "$plan" \
					'{action: "block", message: ("workflow-guard: write the plan first — " + $plan + " does not exist, so " + $p + " cannot be changed yet.")}'
			fi
			;;
		esac
		;;
	esac
	;;
esac
exit 0
