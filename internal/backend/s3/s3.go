// Package s3 is the s3 backend: each workspace's state in an object of an
// S3 bucket (AWS, or any S3-compatible store: MinIO, SeaweedFS, Ceph...),
// locked with a lock object beside it written only if none exists
// (use_lockfile), configured as Terraform's s3 backend is, with the AWS_*
// environment variables for the arguments the block leaves out. Objects
// and locks are laid out as Terraform lays them out, so that both tools
// share a bucket:
//
//	KEY                              the default workspace's state
//	WORKSPACE_KEY_PREFIX/NAME/KEY    workspace NAME's ("env:/NAME/KEY")
//	<state key>.tflock               the lock info JSON while locked
//
// Requests go through the AWS SDK for Go v2.
//
// It is registered in internal/backend; only that package imports it.
package s3

import (
	"context"
	"errors"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/strata-dev/strata/internal/backend/backendbase"
	"github.com/strata-dev/strata/internal/encryption"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statemgr"
)

// Backend is a configured s3 backend.
type Backend struct {
	Config  *Config
	rng     hcl.Range
	dataDir string
	version string
	enc     *encryption.Target // for ReadState
	// persist is how often an apply writes the state reached
	// (TF_STATE_PERSIST_INTERVAL in the command's environment).
	persist time.Duration

	mu    sync.Mutex
	store *store
}

// New configures an s3 backend from its arguments, with the AWS_*
// environment variables for those left out. Nothing is requested until
// a state is.
func New(s *backendbase.Settings) (*Backend, hcl.Diagnostics) {
	cfg, diags := ParseConfig(s)
	if diags.HasErrors() {
		return nil, diags
	}
	return &Backend{Config: cfg, rng: s.Range, dataDir: s.DataDir, version: s.Version, enc: s.Encryption, persist: statemgr.PersistInterval(s.Getenv)}, diags
}

// connect builds the client once: credentials are resolved (and checked
// with STS unless skip_credentials_validation) on first use.
func (b *Backend) connect(ctx context.Context) (*store, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.store != nil {
		return b.store, nil
	}
	st, err := newStore(ctx, b.Config)
	if err != nil {
		return nil, err
	}
	b.store = st
	return st, nil
}

func (b *Backend) configError(err error) hcl.Diagnostics {
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Failed to configure the backend \"s3\"",
		Detail:   err.Error() + ".",
		Subject:  b.rng.Ptr(),
	}}
}

// StateKey is the key of workspace ws's state object.
func (c *Config) StateKey(ws string) string {
	if ws == statemgr.DefaultWorkspace || ws == "" {
		return c.Key
	}
	if c.WorkspaceKeyPrefix == "" {
		return ws + "/" + c.Key
	}
	return c.WorkspaceKeyPrefix + "/" + ws + "/" + c.Key
}

// workspaceOf returns the workspace whose state object is at key, if any.
func (c *Config) workspaceOf(key string) (string, bool) {
	rest := key
	if c.WorkspaceKeyPrefix != "" {
		if !strings.HasPrefix(key, c.WorkspaceKeyPrefix+"/") {
			return "", false
		}
		rest = key[len(c.WorkspaceKeyPrefix)+1:]
	}
	ws, tail, ok := strings.Cut(rest, "/")
	if !ok || ws == "" || tail != c.Key || ws == statemgr.DefaultWorkspace {
		return "", false
	}
	return ws, true
}

// StateMgr returns the manager of workspace ws. The journal of an apply
// stays on this machine, in the data directory, until the final snapshot
// is in the bucket.
func (b *Backend) StateMgr(ctx context.Context, ws string) (statemgr.Manager, hcl.Diagnostics) {
	st, err := b.connect(ctx)
	if err != nil {
		return nil, b.configError(err)
	}
	journal := filepath.Join(b.dataDir, "s3-"+url.PathEscape(ws)+".tfstate.journal")
	mgr := newManager(st, ws, b.Config.StateKey(ws), journal, b.version)
	mgr.PersistInterval = b.persist
	return mgr, nil
}

// Workspaces lists default and the workspaces whose state object is in
// the bucket.
func (b *Backend) Workspaces(ctx context.Context) ([]string, hcl.Diagnostics) {
	st, err := b.connect(ctx)
	if err != nil {
		return nil, b.configError(err)
	}
	prefix := ""
	if b.Config.WorkspaceKeyPrefix != "" {
		prefix = b.Config.WorkspaceKeyPrefix + "/"
	}
	keys, err := st.list(ctx, prefix)
	if err != nil {
		return nil, hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Failed to list workspaces", Detail: "Listing s3://" + b.Config.Bucket + "/" + prefix + ": " + err.Error() + "."}}
	}
	var names []string
	for _, k := range keys {
		if ws, ok := b.Config.workspaceOf(k); ok {
			names = append(names, ws)
		}
	}
	return backendbase.WithDefault(names), nil
}

// DeleteWorkspace removes the workspace's state object.
func (b *Backend) DeleteWorkspace(ctx context.Context, ws string) error {
	if ws == statemgr.DefaultWorkspace {
		return errDeleteDefault
	}
	st, err := b.connect(ctx)
	if err != nil {
		return err
	}
	key := b.Config.StateKey(ws)
	if err := st.remove(ctx, key); err != nil {
		return err
	}
	if st.table != nil {
		return st.table.remove(ctx, b.Config.Bucket+"/"+key+"-md5")
	}
	return nil
}

// ReadState reads workspace ws's state object without creating the
// workspace, recovering a journal or touching any lock.
func (b *Backend) ReadState(ctx context.Context, ws string) (*states.State, bool, error) {
	st, err := b.connect(ctx)
	if err != nil {
		return nil, false, err
	}
	mgr := newManager(st, ws, b.Config.StateKey(ws), "", "")
	mgr.SetEncryption(b.enc)
	return mgr.ReadStored(ctx)
}

var errDeleteDefault = errors.New("the default workspace cannot be deleted")
