package command

import (
	"github.com/strata-dev/strata/internal/command/views"
	"github.com/strata-dev/strata/internal/contract"
	"github.com/strata-dev/strata/internal/engine"
)

// strictHelp is the -strict flag's help, the same on plan and apply.
const strictHelp = "Treat the provider contract violations strata tolerates from\nproviders on the legacy SDK as errors, and read every object\nright after creating or updating it to check that the provider\nreturns what it applied. The same as STRATA_STRICT=1."

// allowProviderChangeHelp is the -allow-provider-change flag's help.
const allowProviderChangeHelp = "Accept that arguments of a provider configuration that decide\nwhere its objects live (region, project, endpoint...) changed\nsince objects were applied: they stay where they are, and the\nnew configuration is recorded for them. Without it, such a plan\nfails; -replace the objects to recreate them instead."

// setContractChecks turns on strict mode (the flag or STRATA_STRICT) and
// the collection of tolerated violations. STRATA_VERIFY_READ=1 turns on
// the verification reads without strict mode: their differences are then
// reported as tolerated violations.
func setContractChecks(d *Deps, e *engine.Engine, strict bool) {
	e.Strict = strict || contract.StrictFromEnv(d.Getenv)
	e.VerifyReads = e.Strict || contract.VerifyReadsFromEnv(d.Getenv)
	e.Contract = &contract.Report{}
}

// reportContract shows the violations tolerated so far, once per run:
// the report is emptied. Nothing is shown when there are none.
func reportContract(v views.Operation, e *engine.Engine) {
	if vs := e.Contract.Take(); len(vs) > 0 {
		v.ContractViolations(vs)
	}
}
