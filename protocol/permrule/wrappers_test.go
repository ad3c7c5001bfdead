package permrule

import "testing"

// sudo -s and -i run the command's words as a -c string of the user's
// shell, escaped but for letters, digits, _, - and $: what the shell then
// reads otherwise than the words — a live $, a zsh's precommand word — is
// refused; plain words are the command, as without -s.
func TestCommandsSudoShell(t *testing.T) {
	const shell = "has the user's shell run"
	checkCommands(t, []commandsCase{
		{line: "sudo -s 'rm$IFS-rf$IFS/'", err: shell},
		{line: "sudo -i 'rm$IFS-rf$IFS/'", err: shell},
		{line: "sudo -s repeat 1 rm -rf /", err: shell},
		{line: "sudo --login nocorrect rm -rf /", err: shell},
		{line: `X='$IFS'; sudo -s "rm${X}-rf" /`, err: shell},
		{line: "sudo -s rm -rf /", want: []string{"sudo -s rm -rf /", "rm -rf /"}},
		{line: "sudo -i systemctl restart nginx", want: []string{"sudo -i systemctl restart nginx", "systemctl restart nginx"}},
		{line: "sudo rm$IFS-rf$IFS/tmp/v", want: []string{"rm -rf /tmp/v"}},
		{line: "sudo -s '$0' -c 'rm -rf /'", err: shell},
		{line: `X='$IFS'; sudo -s rm "-r${X}f" /`, err: shell},
		{line: "sudo -i '$SHELL' -c 'rm -rf /'", err: shell},
		{line: "sudo -s env '$SHELL' -c 'rm -rf /'", err: shell},
		{line: "sudo -s env '$_' -c 'rm -rf /'", err: shell},
		{line: "sudo -s ls '$DIR'", err: shell},
		// A variable's value as an argument is read as the analysis
		// reads it anyway (the sweep's lines).
		{line: "sudo -i -u deploy bash -lc 'cd $HOME/app && git pull'", want: []string{"git pull"}},
		{line: `sudo -i npm install -g "$PKG"`, want: []string{`npm install -g "$PKG"`}},
		{line: `sudo -s ls "$DIR"`, want: []string{`ls "$DIR"`}},
	})
}
