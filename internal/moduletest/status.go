package moduletest

// Status is the outcome of a run block, a file or a whole test suite.
// Statuses are ordered: a file's status is the worst of its runs'.
type Status int

// The statuses, from best to worst.
const (
	Pending Status = iota
	Skip
	Pass
	Fail
	Error
)

// String returns the status as terraform test's JSON output names it.
func (s Status) String() string {
	switch s {
	case Skip:
		return "skip"
	case Pass:
		return "pass"
	case Fail:
		return "fail"
	case Error:
		return "error"
	}
	return "pending"
}

// merge returns the worse of s and o.
func (s Status) merge(o Status) Status {
	if o > s {
		return o
	}
	return s
}
