package cli

import (
	"fmt"

	ucli "github.com/urfave/cli/v2"
)

// The bash and zsh scripts ask journal-lint itself for the candidates
// through urfave/cli's --generate-bash-completion protocol (the app
// enables it), as the scripts urfave/cli v2 ships in its autocomplete
// directory do; v2 has no Go generator for them. fish uses urfave/cli's own
// generator, App.ToFishCompletion.
const bashCompletion = `# journal-lint completion for bash: source it, or save it as
# /etc/bash_completion.d/journal-lint (or ~/.local/share/bash-completion/completions/journal-lint).
_journal_lint_complete() {
  local cur words
  COMPREPLY=()
  cur="${COMP_WORDS[COMP_CWORD]}"
  words=("${COMP_WORDS[@]:0:COMP_CWORD}")
  local opts
  if [[ "$cur" == -* ]]; then
    opts=$("${words[@]}" "$cur" --generate-bash-completion 2>/dev/null)
  else
    opts=$("${words[@]}" --generate-bash-completion 2>/dev/null)
  fi
  COMPREPLY=($(compgen -W "${opts}" -- "${cur}"))
}
complete -o bashdefault -o default -F _journal_lint_complete journal-lint
`

const zshCompletion = `#compdef journal-lint
# journal-lint completion for zsh: save it as _journal-lint in a directory of $fpath,
# or source it after compinit.
_journal_lint() {
  local -a opts
  local cur=${words[-1]}
  if [[ "$cur" == -* ]]; then
    opts=("${(@f)$(${words[@]:0:#words[@]-1} ${cur} --generate-bash-completion 2>/dev/null)}")
  else
    opts=("${(@f)$(${words[@]:0:#words[@]-1} --generate-bash-completion 2>/dev/null)}")
  fi
  if [[ "${opts[1]}" != "" ]]; then
    _describe 'values' opts
  else
    _files
  fi
}
compdef _journal_lint journal-lint
`

func completionCommand() *ucli.Command {
	return &ucli.Command{
		Name:  "completion",
		Usage: "print a shell completion script (bash, zsh or fish)",
		UsageText: "journal-lint completion bash|zsh|fish\n\n" +
			"Prints a script that completes journal-lint's commands and flags in the shell.\n" +
			"Exit codes: 0 printed, 2 usage error.\n\n" +
			"Examples:\n" +
			"   source <(journal-lint completion bash)                               (bash, this shell)\n" +
			"   journal-lint completion zsh > \"${fpath[1]}/_journal-lint\"           (zsh)\n" +
			"   journal-lint completion fish > ~/.config/fish/completions/journal-lint.fish",
		Action: func(c *ucli.Context) error {
			if c.NArg() != 1 {
				return usageErrorf("completion needs one SHELL: bash, zsh or fish")
			}
			var script string
			switch sh := c.Args().First(); sh {
			case "bash":
				script = bashCompletion
			case "zsh":
				script = zshCompletion
			case "fish":
				s, err := c.App.ToFishCompletion()
				if err != nil {
					return internalErrorf("generating the fish completion: %v", err)
				}
				script = s
			default:
				return usageErrorf("no completion for shell %q: journal-lint knows bash, zsh and fish%s", sh, didYouMean(sh, []string{"bash", "zsh", "fish"}))
			}
			if _, err := fmt.Fprint(c.App.Writer, script); err != nil {
				return internalErrorf("writing output: %v", err)
			}
			return nil
		},
	}
}
