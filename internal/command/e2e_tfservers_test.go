package command

import (
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/strata-dev/strata/internal/initwd/sourcetest"
)

// Static servers.
//
// A terraform run that reaches a server on a loopback address is not
// recorded (e2e_tfruns_test.go): what the server answers is not in the
// run's key. The registry and module-source fixtures (registrytest,
// sourcetest) are an exception worth making: what they serve is decided
// by the test's source alone (their TLS certificate and signing keys are
// fixed, the packages and modules they publish are written by the test),
// and their runs are among the slowest terraform makes (downloads, git).
// A test declares such a server with staticServer. Its address in a run's
// input and output becomes a token (the port changes from run to run),
// and the run's key includes a digest of the source files that decide
// what the server serves: the fixture's package and the test's file.
// Changing one of them makes the recordings stale, as for recorded
// outcomes (e2e_tfoutcomes_test.go).
//
// The servers' request logs see terraform's requests only when it runs:
// a test must not check them after a replayed run.

// staticServers maps the host (127.0.0.1:PORT) of each live static server
// to the digest of what it serves.
var staticServers sync.Map

// staticFixtures are the fixture packages whose source decides what
// static servers answer, relative to this package.
var staticFixtures = []string{
	"../getproviders/registrytest/registrytest.go",
	"../initwd/sourcetest/sourcetest.go",
	"../testtls/testtls.go",
}

// staticServer declares that the server at host (127.0.0.1:PORT) serves
// only what the fixtures and sources (files relative to this package,
// usually the test's own) decide, until the test ends.
func staticServer(t *testing.T, host string, sources ...string) {
	t.Helper()
	if !strings.HasPrefix(host, "127.0.0.1:") {
		t.Fatalf("static server %q: want 127.0.0.1:PORT", host)
	}
	files := append(append([]string{}, staticFixtures...), sources...)
	staticServers.Store(host, sourcesDigest(t, files))
	t.Cleanup(func() { staticServers.Delete(host) })
}

// staticSourceServer declares both of a module-source server's addresses
// static (see staticServer).
func staticSourceServer(t *testing.T, s *sourcetest.Server, sources ...string) {
	t.Helper()
	staticServer(t, s.Host, sources...)
	staticServer(t, strings.TrimPrefix(s.PlainURL, "http://"), sources...)
}

// staticServerAt returns the end of the static server's host that starts
// at s[i] ("127.0.0.1:PORT"), or i.
func staticServerAt(s string, i int) int {
	const loopback = "127.0.0.1:"
	if !strings.HasPrefix(s[i:], loopback) {
		return i
	}
	j := i + len(loopback)
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	if j == i+len(loopback) {
		return i
	}
	if _, ok := staticServers.Load(s[i:j]); !ok {
		return i
	}
	return j
}

// staticDigests lists the digests of the static servers a tokenizer has
// met, by token, in the order of their tokens.
func (tok *tokenizer) staticDigests() []string {
	var out []string
	for v, token := range tok.tokens {
		if !strings.HasPrefix(token, "⟦server") {
			continue
		}
		if d, ok := staticServers.Load(v); ok {
			out = append(out, token+" "+d.(string))
		}
	}
	sort.Strings(out)
	return out
}
