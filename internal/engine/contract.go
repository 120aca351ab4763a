package engine

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/zclconf/go-cty/cty"

	"github.com/strata-dev/strata/internal/addrs"
	"github.com/strata-dev/strata/internal/contract"
	"github.com/strata-dev/strata/internal/plans/objchange"
	"github.com/strata-dev/strata/internal/providers"
)

// strictNote ends the error a violation becomes in strict mode.
const strictNote = "The provider declared the legacy type system, for which strata tolerates this (as Terraform does) unless strict mode (-strict or STRATA_STRICT=1) is on, as it is now."

// contractCheck handles what a contract check found wrong with one
// provider response. A provider on the current type system broke the
// rule: that is the error it always was (summary, template). A legacy
// provider's violations are recorded in the engine's contract report
// and tolerated, unless the engine is strict: then they are the same
// error, with a note saying why. sensitive lists the paths of values the
// configuration marks sensitive, whose values the report leaves out.
func (w *walker) contractCheck(rt *resourceType, addr addrs.AbsResourceInstance, rule contract.Rule, legacy bool, errs []error, sensitive []cty.Path, summary, template string) *hcl.Diagnostic {
	if len(errs) == 0 {
		return nil
	}
	if !legacy {
		return inconsistent(summary, rt, addr, errs, template)
	}
	errs = redactErrors(errs, sensitive)
	if w.e.Strict {
		d := inconsistent(summary, rt, addr, errs, template)
		d.Detail += "\n\n" + strictNote
		return d
	}
	w.e.Contract.Add(violations(rt, addr, rule, true, errs)...)
	return nil
}

// violations converts objchange's errors into report entries.
func violations(rt *resourceType, addr addrs.AbsResourceInstance, rule contract.Rule, legacy bool, errs []error) []contract.Violation {
	out := make([]contract.Violation, 0, len(errs))
	for _, err := range errs {
		path, detail := splitPathError(err)
		out = append(out, contract.Violation{
			Provider: rt.provider.Provider.String(), Address: addr.String(), Type: addr.Resource.Resource.Type,
			Rule: rule, Path: path, Detail: detail, Legacy: legacy,
		})
	}
	return out
}

// splitPathError separates objchange's ".path: message" into the path and
// the message.
func splitPathError(err error) (string, string) {
	var pe cty.PathError
	msg := err.Error()
	if errors.As(err, &pe) {
		p := objchange.FormatPath(pe.Path)
		if p != "" && strings.HasPrefix(msg, p+": ") {
			return p, strings.TrimPrefix(msg, p+": ")
		}
		return p, msg
	}
	return "", msg
}

// redactErrors replaces the errors about values the configuration marks
// sensitive (at, inside or around a sensitive path) by errors without
// the values: objchange renders the values it is given, and it is given
// unmarked ones.
func redactErrors(errs []error, sensitive []cty.Path) []error {
	if len(sensitive) == 0 {
		return errs
	}
	out := make([]error, len(errs))
	for i, err := range errs {
		out[i] = err
		var pe cty.PathError
		if !errors.As(err, &pe) {
			continue
		}
		for _, s := range sensitive {
			if pathsOverlap(pe.Path, s) {
				msg := "the value differs (sensitive value)"
				if p := objchange.FormatPath(pe.Path); p != "" {
					msg = p + ": " + msg
				}
				out[i] = pe.Path.NewErrorf("%s", msg)
				break
			}
		}
	}
	return out
}

// pathsOverlap reports whether one path is a prefix of the other.
func pathsOverlap(a, b cty.Path) bool {
	n := min(len(a), len(b))
	return a[:n].Equals(b[:n])
}

// verifyRead reads an object right after apply and compares the result
// with what apply returned: a provider whose values are canonical returns
// the same object, and anything else would show as drift on the next
// plan. Only on when the engine verifies reads (strict mode, or
// STRATA_VERIFY_READ). A difference is an error in strict mode and a
// tolerated violation otherwise; so is an object the read does not find.
func (w *walker) verifyRead(ctx context.Context, rt *resourceType, addr addrs.AbsResourceInstance, applied cty.Value, private []byte, identity cty.Value, sensitive []cty.Path) hcl.Diagnostics {
	if !w.e.VerifyReads || applied == cty.NilVal || applied.IsNull() || !applied.IsWhollyKnown() {
		return nil
	}
	if err := w.acquire(ctx); err != nil {
		return cancelledDiags(err)
	}
	resp := rt.p.ReadResource(ctx, providers.ReadResourceRequest{TypeName: addr.Resource.Resource.Type, PriorState: applied, Private: private, CurrentIdentity: identity})
	w.release()
	if resp.Diagnostics.HasErrors() {
		return instanceDiags(resp.Diagnostics, addr, "Failed to read after apply")
	}
	read := resp.NewState
	var errs []error
	switch {
	case read == cty.NilVal || read.IsNull():
		errs = []error{fmt.Errorf("the object was not found")}
	case len(read.Type().TestConformance(rt.ty)) > 0:
		errs = []error{fmt.Errorf("the object read does not match the schema")}
	default:
		errs = objchange.AssertObjectCompatible(rt.schema, applied, read)
	}
	if len(errs) == 0 {
		return nil
	}
	errs = redactErrors(errs, sensitive)
	if w.e.Strict {
		return hcl.Diagnostics{inconsistent("Provider read a different object after apply", rt, addr, errs, readAfterApply)}
	}
	w.e.Contract.Add(violations(rt, addr, contract.ReadAfterApply, false, errs)...)
	return nil
}

// readAfterApply is the template of a verification read's errors.
const readAfterApply = "Reading %[2]s right after applying it, provider %[1]q returned a different value, which the next plan would show as a change made outside strata: %[3]s. In strict mode, strata requires a provider to return the applied object's values as they are (normalising a value back to the configured form, not to the remote system's)."
