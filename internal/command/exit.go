package command

import (
	"errors"
	"fmt"
)

// ExitError carries a process exit code out of a command. Code 1 is an
// error already reported to the user; code 2 is "changes present" for
// -detailed-exitcode.
type ExitError struct {
	Code int
}

func (e *ExitError) Error() string { return fmt.Sprintf("exit status %d", e.Code) }

// errReported is returned by commands that have already shown their
// errors.
var errReported = &ExitError{Code: 1}

// ExitCode returns the process exit code for a command's error.
func ExitCode(err error) int {
	if err == nil {
		return 0
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		return ee.Code
	}
	return 1
}
