package equivtest

import (
	"regexp"
)

// The deliberate differences of strata's outputs from Terraform's that
// website/docs/differences.md documents, undone before the comparison so
// that the suite sees only the others:
//
//   - messages say strata where Terraform says Terraform ("strata will
//     perform the following actions", "strata apply \"plan\"");
//   - the -json stream of an apply has a resource_outcome message per
//     instance, which Terraform's has not;
//   - a plan's replacements have a "# (strata) replaced because" line;
//   - a provider's tolerated contract violations are reported, in a
//     warning of the human output and a contract_violations message of
//     the -json stream.

var (
	commandName = regexp.MustCompile(`\bstrata( (?:apply|plan|init|import|state (?:list|mv|pull|push|replace-provider|rm|show)|refresh|destroy|show|output|validate|providers|workspace|console|fmt|force-unlock|get|graph|login|logout|taint|untaint|test|version|metadata)\b)`)
	productName = regexp.MustCompile(`\bstrata\b`)
	replaceNote = regexp.MustCompile(`(?m)^ *# \(strata\) .*\n`)
	// contractWarning is the warning as -no-color prints it, with the
	// blank line after it.
	contractWarning = regexp.MustCompile(`(?s)\nWarning: Provider contract violations tolerated\n.*?make them errors\.\n`)
)

// UndoDeliberate turns outputs of strata into what they would be without
// the deliberate differences, in place.
func UndoDeliberate(outs map[string]Output) {
	for name, o := range outs {
		if !o.IsJSON {
			t := replaceNote.ReplaceAllString(o.Text, "")
			t = contractWarning.ReplaceAllString(t, "")
			t = commandName.ReplaceAllString(t, "terraform$1")
			o.Text = productName.ReplaceAllString(t, "Terraform")
			outs[name] = o
			continue
		}
		if msgs, ok := o.JSON.([]any); ok {
			kept := msgs[:0:0]
			for _, m := range msgs {
				if mm, ok := m.(map[string]any); ok && (mm["type"] == "resource_outcome" || mm["type"] == "contract_violations") {
					continue
				}
				kept = append(kept, m)
			}
			o.JSON = kept
			outs[name] = o
		}
	}
}
