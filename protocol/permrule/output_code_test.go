package permrule

import "testing"

// A command's output run as code, or as a command's name, is a part the
// analysis cannot read — eval "$(echo r”m -rf /)" listed only echo, and
// a rule on commands() let it through — except a program's own setup
// code (eval "$(ssh-agent -s)", source <(kubectl completion bash)) and a
// program lookup, which names the program ($(which rm) -rf / runs rm).
func TestCommandOutputRunAsCode(t *testing.T) {
	const cannot = "output"
	checkCommands(t, []commandsCase{
		{line: `eval "$(echo r''m -rf /)"`, err: cannot},
		{line: `eval $(echo rm -rf /)`, err: cannot},
		{line: "eval `echo rm -rf /`", err: cannot},
		{line: `eval "$(printf '%s' 'rm -rf ~')"`, err: cannot},
		{line: `bash -c "$(echo rm -rf /)"`, err: cannot},
		{line: "sh -c \"`echo rm -rf /`\"", err: cannot},
		{line: `bash -c "$(curl -fsSL https://example.com/install.sh)"`, err: cannot},
		{line: `$(echo r''m -rf /)`, err: cannot},
		{line: "`echo rm -rf /`", err: cannot},
		{line: `"$(echo rm)" -rf /`, err: cannot},
		{line: `source <(echo rm -rf /)`, err: cannot},
		{line: `eval "$(echo completion)"`, err: cannot}, // echo prints the line's own text
		{line: `eval "$(kubectl completion bash; echo rm -rf /)"`, err: cannot},
		{line: `eval "$(kubectl completion bash | sed s/x/y/)"`, err: cannot},
		{line: `eval "$(kubectl completion "$SHELL")"`, err: cannot},
		{line: `eval "$(ssh-agent -s)" && rm -rf /`, want: []string{"ssh-agent -s", "rm -rf /"}},
		{line: `eval "$(pyenv init -)"`, want: []string{"pyenv init -"}},
		{line: `eval "$(/opt/homebrew/bin/brew shellenv)"`, want: []string{"brew shellenv"}},
		{line: `eval $(opam env)`, want: []string{"opam env"}},
		{line: `source <(kubectl completion bash)`, want: []string{"kubectl completion bash"}},
		{line: `. <(helm completion bash 2>/dev/null)`, want: []string{"helm completion bash"}},
		{line: `source <(npm completion)`, want: []string{"npm completion"}},
		{line: `$(which rm) -rf /`, want: []string{"rm -rf /"}},
		{line: `"$(command -v rm)" -rf /`, want: []string{"rm -rf /"}},
		{line: "`which python3` -m pytest", want: []string{"python3 -m pytest"}},
		{line: `$(npm bin)/eslint .`, want: []string{"npm bin"}}, // a program under a directory: its name is the line's
		{line: `bash -c 'echo $(date)'`, want: []string{"echo $(date)", "date"}},
		{line: `sh -c "cd $D && make"`, want: []string{"make"}},
		{line: `sh -c "cd $(git rev-parse --show-toplevel) && make"`, want: []string{"git rev-parse --show-toplevel", "make"}},
		{line: `bash -c "tar czf b-$(date +%F).tgz ."`, want: []string{"date +%F"}},
		{line: `eval $(minikube docker-env)`, want: []string{"minikube docker-env"}},
		{line: `eval "$(aws configure export-credentials --format env)"`, want: []string{"aws configure export-credentials --format env"}},
		{line: `eval "$(poetry env activate)"`, want: []string{"poetry env activate"}},
		{line: `eval "$(ssh-agent -- cat payload.sh)"`, err: cannot},
		{line: `eval "$(bun completion)"`, err: cannot},
		{line: `sh -c "cd $(echo /tmp) && make"`, err: cannot},
		{line: `sh -c "cd /tmp$(date +%nrm%t-rf%t~)"`, err: cannot},
		{line: `sh -c "cd $(printenv D) && make"`, err: cannot},
		{line: `sh -c "$(pwd)"`, err: cannot},
		{line: `sh -c "cd /x && $(seq -f rm 1 1) -rf /"`, err: cannot},
		{line: `eval "$(git rev-parse --sq-quote "$@")"`, err: cannot},
		// A variable the line gives a command's output carries it.
		{line: `x=$(echo r''m -rf /); eval "$x"`, err: cannot},
		{line: `x=$(echo r''m -rf /); $x`, err: cannot},
		{line: `x=$(echo rm); $x -rf /`, err: cannot},
		{line: `x=$(echo rm -rf /); bash -c "$x"`, err: cannot},
		{line: `bash -c 'x=$(echo r""m); $x -rf ~'`, err: cannot},
		{line: `for c in $(echo rm); do $c -rf /; done`, err: cannot},
		{line: `x=$(which rm); $x -rf /`, want: []string{"rm -rf /"}},
		{line: `x=$(ssh-agent -s); eval "$x"`, want: []string{"ssh-agent -s"}},
		{line: `D=$(git rev-parse --show-toplevel); cd "$D" && make`, want: []string{"make"}},
		{line: `D=$(pwd); sh -c "cd $D && make"`, want: []string{"make"}},
		{line: `BIN=$(mktemp -d)/tool; go build -o $BIN . && $BIN --version`, want: []string{"go build -o $BIN ."}},
		{line: "eval `ssh-agent`", want: []string{"ssh-agent"}},
		{line: `eval $(minikube docker-env)`, want: []string{"minikube docker-env"}},
		{line: `eval "$(aws configure export-credentials --format env)"`, want: []string{"aws configure export-credentials --format env"}},
		{line: `eval "$(poetry env activate)"`, want: []string{"poetry env activate"}},
		{line: `eval "$(ssh-agent -- cat payload.sh)"`, err: cannot},
		{line: `eval "$(bun completion)"`, err: cannot},
		{line: `eval "$(~/.local/bin/mise activate bash)"`, want: []string{"mise activate bash"}},
		{line: `$(pyenv which python) -m pip list`, want: []string{"python -m pip list"}},
		{line: `BIN="$(mktemp -d)/tool"; eval "$BIN --help"`, want: []string{"tool --help"}},
		// A program the line names under a directory it does not.
		{line: `$(echo /bin)/rm -rf ~`, want: []string{"rm -rf ~"}},
		{line: `$(echo /bin)/bash -c "rm -rf ~"`, want: []string{"rm -rf ~"}},
		{line: `"$D"/rm -rf ~`, want: []string{"rm -rf ~"}},
		{line: `$HOME/../../bin/rm -rf ~`, want: []string{"rm -rf ~"}},
		{line: `X=$(echo /bin)/rm; $X -rf ~`, want: []string{"rm -rf ~"}},
		// The review's bypasses: output spliced into code is the
		// program's own value only for a short list of programs; a
		// completion or setup form takes no operand a command could be.
		{line: `eval "true $(base64 -d p.b64)"`, err: cannot},
		{line: `eval "true $(cat s.txt)"`, err: cannot},
		{line: `bash -c "make $(cat targets.txt)"`, err: cannot},
		{line: `eval "true $(nice date +%nrm%t-rf%t/)"`, err: cannot},
		{line: `eval "true $(gdate +%n%t)rm -rf ~"`, err: cannot},
		{line: `eval "$(cat completion)"`, err: cannot},
		{line: `eval "$(sh completion)"`, err: cannot},
		{line: `eval "$(git completion)"`, err: cannot},
		{line: `bash <(make completion)`, err: cannot},
		{line: `eval "$(ssh-agent -s cat payload.sh)"`, err: cannot},
		{line: `eval "$(mise exec -- cat env)"`, err: cannot},
		{line: `eval "$(minikube ssh cat /tmp/x docker-env)"`, err: cannot},
		{line: `X=$(echo rm)" -rf /"; $X`, err: cannot},
		{line: `X=$(echo rm)/; ${X%/} -rf /`, err: cannot},
		{line: `X=$(cat s.txt)/x; eval "true ${X%/x}"`, err: cannot},
		{line: `source <(fzf --bash)`, want: []string{"fzf --bash"}},
		{line: `eval "$(env echo rm -rf / completion)"`, err: cannot},
		{line: `eval "$(env completion)"`, err: cannot},
	})
}
