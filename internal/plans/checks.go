package plans

import "github.com/strata-dev/strata/internal/addrs"

// CheckStatus is the result of the conditions of a checkable object.
type CheckStatus string

// The statuses, as plan documents spell them.
const (
	CheckPass    CheckStatus = "pass"
	CheckFail    CheckStatus = "fail"
	CheckUnknown CheckStatus = "unknown"
	CheckError   CheckStatus = "error"
)

// Worse returns the status that wins when an object has both: an error
// over a failure, a failure over an unknown result, anything over a pass.
func (s CheckStatus) Worse(o CheckStatus) CheckStatus {
	rank := map[CheckStatus]int{CheckPass: 0, CheckUnknown: 1, CheckFail: 2, CheckError: 3}
	if rank[o] > rank[s] {
		return o
	}
	return s
}

// The kinds of checkable objects.
const (
	CheckKindResource = "resource"
	CheckKindOutput   = "output_value"
	CheckKindCheck    = "check"
	CheckKindVariable = "var"
)

// CheckResult is what the conditions of one checkable configuration object
// gave: a resource with preconditions or postconditions, an output with
// preconditions, a check block, or a variable with validation rules.
type CheckResult struct {
	Kind   string
	Module addrs.Module
	// Resource is set for a resource; Name for the other kinds.
	Resource  addrs.Resource
	Name      string
	Status    CheckStatus
	Instances []*CheckInstanceResult
}

// CheckInstanceResult is the result for one instance of the object.
type CheckInstanceResult struct {
	Module   addrs.ModuleInstance
	Key      addrs.InstanceKey
	Status   CheckStatus
	Problems []string
}

// LocalAddr returns the object's address within its module, such as
// terraform_data.a, output.o, check.c or var.v.
func (r *CheckResult) LocalAddr() string {
	switch r.Kind {
	case CheckKindResource:
		return r.Resource.String()
	case CheckKindOutput:
		return "output." + r.Name
	case CheckKindCheck:
		return "check." + r.Name
	}
	return "var." + r.Name
}

// ConfigAddr returns the object's address in the configuration, such as
// module.m.check.c.
func (r *CheckResult) ConfigAddr() string {
	if r.Module.IsRoot() {
		return r.LocalAddr()
	}
	return r.Module.String() + "." + r.LocalAddr()
}

// Addr returns the address of one instance of the object, such as
// module.m[0].terraform_data.a[1].
func (r *CheckResult) Addr(i *CheckInstanceResult) string {
	local := r.LocalAddr() + addrs.KeyString(i.Key)
	if i.Module.IsRoot() {
		return local
	}
	return i.Module.String() + "." + local
}
