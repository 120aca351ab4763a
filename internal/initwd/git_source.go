package initwd

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/strata-dev/strata/internal/addrs"
)

// gitSource is a git repository to clone, from a git:: source.
type gitSource struct {
	// repo is the URL given to git clone: the package URL without the
	// arguments strata interprets.
	repo string
	// ref is the tag, branch or commit to check out; empty for the
	// remote's default branch.
	ref string
	// depth makes a shallow clone when positive.
	depth int
	// sshKey is the private key of the sshkey argument, for ssh:// URLs.
	sshKey []byte
}

// parseGitSource reads the repository URL and the ref and depth
// arguments of a git:: package: git::https://, git::http://, git::ssh://
// (scp-style git@host:path has become ssh:// when parsed) and
// git::file://.
func parseGitSource(src addrs.ModuleSourceRemote) (gitSource, error) {
	u, err := url.Parse(src.URL())
	if err != nil {
		return gitSource{}, err
	}
	switch u.Scheme {
	case "https", "http", "ssh", "file", "git":
	default:
		return gitSource{}, fmt.Errorf("the git URL scheme %q is not supported; use https://, http://, ssh:// or file://", u.Scheme)
	}
	if u.Path == "" || u.Path == "/" {
		return gitSource{}, errors.New("a git source needs the path of a repository, such as git::https://example.com/modules.git")
	}
	var gs gitSource
	q := u.Query()
	gs.ref = q.Get("ref")
	if q.Has("ref") && gs.ref == "" {
		return gitSource{}, errors.New("the ref argument is empty")
	}
	if strings.HasPrefix(gs.ref, "-") {
		return gitSource{}, fmt.Errorf("the ref %q is not a tag, branch or commit", gs.ref)
	}
	if d := q.Get("depth"); d != "" {
		n, err := strconv.Atoi(d)
		if err != nil || n < 0 {
			return gitSource{}, fmt.Errorf("the depth argument %q is not a whole number", d)
		}
		gs.depth = n
	}
	if k := q.Get("sshkey"); k != "" {
		if u.Scheme != "ssh" {
			return gitSource{}, errors.New("the sshkey argument is only for ssh:// repositories (and git@HOST:PATH)")
		}
		key, err := base64.StdEncoding.DecodeString(k)
		if err != nil {
			return gitSource{}, fmt.Errorf("the sshkey argument is not a base64-encoded private key: %w", err)
		}
		gs.sshKey = key
	}
	q.Del("ref")
	q.Del("depth")
	q.Del("sshkey")
	for k := range q {
		return gitSource{}, fmt.Errorf("the argument %q is not supported; a git source accepts ref, depth and sshkey", k)
	}
	u.RawQuery = ""
	gs.repo = u.String()
	return gs, nil
}

// gitRunner runs the git program.
type gitRunner struct {
	ctx context.Context
	// git is the path of the git program, found on first use.
	git string
	// sshCommand, when set, is GIT_SSH_COMMAND for the commands run.
	sshCommand string
	// environ is the environment git runs with (the command's); nil
	// means the process's.
	environ []string
}

// getenv reads a variable of the environment git runs with.
func (g *gitRunner) getenv(name string) string {
	if g.environ == nil {
		return os.Getenv(name)
	}
	v := ""
	for _, kv := range g.environ {
		if k, val, ok := strings.Cut(kv, "="); ok && k == name {
			v = val // the last one wins, as for exec
		}
	}
	return v
}

// lookPath finds program on the PATH of the environment git runs with,
// as exec.LookPath does on the process's.
func (g *gitRunner) lookPath(program string) (string, error) {
	if g.environ == nil {
		return exec.LookPath(program)
	}
	for _, dir := range filepath.SplitList(g.getenv("PATH")) {
		if dir == "" || !filepath.IsAbs(dir) {
			continue // a relative PATH entry would depend on the process's directory
		}
		path := filepath.Join(dir, program)
		if info, err := os.Stat(path); err == nil && info.Mode().IsRegular() && info.Mode()&0o111 != 0 {
			return path, nil
		}
	}
	return "", exec.ErrNotFound
}

// clone clones a repository into dir, which must not exist, and checks
// out the ref as go-getter does: a shallow clone of the ref when a depth
// is given, else a full clone followed by a checkout, so that tags,
// branches and commits all work.
func (g *gitRunner) clone(gs gitSource, dir string) error {
	if g.git == "" {
		git, err := g.lookPath("git")
		if err != nil {
			return errors.New("strata runs the git program to install git sources, and git was not found on PATH. Install git, or copy the module into the configuration and call it with a local path")
		}
		g.git = git
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	if len(gs.sshKey) > 0 {
		// As go-getter does: the key in a file of its own (beside the
		// download, inside the modules directory) given to ssh with -i.
		keyFile := dir + ".sshkey"
		if err := os.WriteFile(keyFile, gs.sshKey, 0o600); err != nil {
			return err
		}
		defer os.Remove(keyFile)
		base := g.getenv("GIT_SSH_COMMAND")
		if base == "" {
			base = "ssh"
		}
		g.sshCommand = base + " -i " + shellQuote(keyFile)
		defer func() { g.sshCommand = "" }()
	}
	args := []string{"clone"}
	if gs.depth > 0 {
		args = append(args, "--depth", strconv.Itoa(gs.depth))
		if gs.ref != "" {
			args = append(args, "--branch", gs.ref)
		}
	}
	args = append(args, "--", gs.repo, dir)
	if err := g.run("", args...); err != nil {
		return err
	}
	if gs.ref != "" && gs.depth == 0 {
		if err := g.run(dir, "checkout", gs.ref, "--"); err != nil {
			return err
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".gitmodules")); err == nil {
		if err := g.run(dir, "submodule", "update", "--init", "--recursive"); err != nil {
			return err
		}
	}
	return nil
}

func (g *gitRunner) run(dir string, args ...string) error {
	ctx := g.ctx
	if ctx == nil {
		ctx = context.Background()
	}
	cmd := exec.CommandContext(ctx, g.git, args...)
	cmd.Dir = dir
	// No prompt for a password on the terminal: init fails instead of
	// hanging.
	env := g.environ
	if env == nil {
		env = os.Environ()
	}
	cmd.Env = append(append([]string(nil), env...), "GIT_TERMINAL_PROMPT=0")
	if g.sshCommand != "" {
		cmd.Env = append(cmd.Env, "GIT_SSH_COMMAND="+g.sshCommand)
	}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(out.String())
		if ee, ok := err.(*exec.ExitError); ok && msg != "" {
			// Terraform's (go-getter's) words.
			return fmt.Errorf("%s exited with %d: %s", g.git, ee.ExitCode(), msg)
		}
		return fmt.Errorf("git %s: %w", args[0], err)
	}
	return nil
}

// shellQuote quotes s for the shell git runs GIT_SSH_COMMAND with.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
