package command

import (
	"bufio"
	"io"
	"strings"
)

// readAnswer reads one line of input for a prompt. ok is false when the
// input ended before anything was typed.
func readAnswer(r io.Reader) (answer string, ok bool) {
	line, err := bufio.NewReader(r).ReadString('\n')
	if err != nil && line == "" {
		return "", false
	}
	return strings.TrimSpace(line), true
}
