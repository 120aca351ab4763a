package statemgr

import (
	"bytes"
	"context"
	"crypto/md5"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/strata-dev/strata/internal/encryption"
	"github.com/strata-dev/strata/internal/states"
	"github.com/strata-dev/strata/internal/states/statefile"
)

// The http backend keeps the state of the default workspace at a URL and
// speaks the REST protocol of Terraform's http backend:
//
//	GET    address          the state; 404, 204 or an empty body: none
//	POST   address[?ID=id]  store the whole state (update_method); ID is
//	                        the lock's ID while it is held
//	DELETE address          remove the state
//	LOCK   lock_address     body: the lock info JSON; 200 taken, 423
//	                        Locked or 409 Conflict: held, the body being
//	                        the holder's lock info
//	UNLOCK unlock_address   body: the lock info JSON given to LOCK
//
// Without a lock_address there is no locking, as with Terraform.

// HTTPConfig is the configuration of the http backend.
type HTTPConfig struct {
	// Address is the URL of the state.
	Address string
	// UpdateMethod stores the state; "" means POST.
	UpdateMethod string
	// LockAddress and UnlockAddress are where the lock is taken and
	// released; "" disables locking (resp. unlocking).
	LockAddress   string
	UnlockAddress string
	// LockMethod and UnlockMethod default to LOCK and UNLOCK.
	LockMethod   string
	UnlockMethod string
	// Username and Password are sent with basic authentication when
	// Username or Password is set.
	Username string
	Password string
	// SkipCertVerification accepts any TLS certificate.
	SkipCertVerification bool
	// ClientCACertificatePEM, when set, is the only CA trusted;
	// ClientCertificatePEM and ClientPrivateKeyPEM are a client
	// certificate for mutual TLS.
	ClientCACertificatePEM string
	ClientCertificatePEM   string
	ClientPrivateKeyPEM    string
	// RetryMax is the number of retries of a request that failed with a
	// network error, 429 or a 5xx status; RetryWaitMin and RetryWaitMax
	// bound the exponential backoff between them.
	RetryMax     int
	RetryWaitMin time.Duration
	RetryWaitMax time.Duration
}

// Default retry settings of the http backend, Terraform's.
const (
	DefaultHTTPRetryMax     = 2
	DefaultHTTPRetryWaitMin = time.Second
	DefaultHTTPRetryWaitMax = 30 * time.Second
)

// httpTimeout bounds one request.
const httpTimeout = 2 * time.Minute

// HTTP keeps the default workspace's state behind a URL. Its journal is a
// local file, replayed into the remote state by the next Read.
type HTTP struct {
	Config HTTPConfig
	// RemoteJournal is the local journal of an apply in progress; its
	// JournalPath is the file.
	RemoteJournal
	// Version is written into snapshots as terraform_version.
	Version string

	client   *http.Client
	address  *url.URL
	lockBody []byte // the lock info sent to LOCK; nil when unlocked
	lockID   string

	crypt  SnapshotCrypt
	read   []byte // the state (decrypted) last read or written
	serial uint64
}

var _ Manager = (*HTTP)(nil)

// SetEncryption implements Encryptable: the stored state and the local
// journal are encrypted with t.
func (m *HTTP) SetEncryption(t *encryption.Target) {
	m.crypt.Target = t
	m.SetJournalEncryption(t)
}

// NewHTTP returns a manager for the state at cfg.Address, after checking
// the configuration.
func NewHTTP(cfg HTTPConfig, journalPath, version string) (*HTTP, error) {
	if cfg.Address == "" {
		return nil, errors.New("address is required: set it in the backend block or in TF_HTTP_ADDRESS")
	}
	addr, err := parseHTTPURL("address", cfg.Address)
	if err != nil {
		return nil, err
	}
	if cfg.LockAddress != "" {
		if _, err := parseHTTPURL("lock_address", cfg.LockAddress); err != nil {
			return nil, err
		}
	}
	if cfg.UnlockAddress != "" {
		if _, err := parseHTTPURL("unlock_address", cfg.UnlockAddress); err != nil {
			return nil, err
		}
	}
	if cfg.UpdateMethod == "" {
		cfg.UpdateMethod = http.MethodPost
	}
	if cfg.LockMethod == "" {
		cfg.LockMethod = "LOCK"
	}
	if cfg.UnlockMethod == "" {
		cfg.UnlockMethod = "UNLOCK"
	}
	if cfg.RetryMax < 0 {
		return nil, fmt.Errorf("retry_max must not be negative, not %d", cfg.RetryMax)
	}
	if cfg.RetryWaitMin < 0 || cfg.RetryWaitMax < 0 {
		return nil, errors.New("retry_wait_min and retry_wait_max must not be negative")
	}
	if cfg.RetryWaitMax < cfg.RetryWaitMin {
		cfg.RetryWaitMax = cfg.RetryWaitMin
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tlsCfg := &tls.Config{InsecureSkipVerify: cfg.SkipCertVerification}
	if cfg.ClientCACertificatePEM != "" {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM([]byte(cfg.ClientCACertificatePEM)) {
			return nil, errors.New("client_ca_certificate_pem holds no PEM certificate")
		}
		tlsCfg.RootCAs = pool
	}
	if cfg.ClientCertificatePEM != "" || cfg.ClientPrivateKeyPEM != "" {
		if cfg.ClientCertificatePEM == "" || cfg.ClientPrivateKeyPEM == "" {
			return nil, errors.New("client_certificate_pem and client_private_key_pem must be set together")
		}
		cert, err := tls.X509KeyPair([]byte(cfg.ClientCertificatePEM), []byte(cfg.ClientPrivateKeyPEM))
		if err != nil {
			return nil, fmt.Errorf("client certificate: %w", err)
		}
		tlsCfg.Certificates = []tls.Certificate{cert}
	}
	tr.TLSClientConfig = tlsCfg
	m := &HTTP{
		Config:  cfg,
		Version: version,
		client:  &http.Client{Transport: tr, Timeout: httpTimeout},
		address: addr,
	}
	m.RemoteJournal = NewRemoteJournal(journalPath, m.write, func() uint64 { return m.serial })
	return m, nil
}

func parseHTTPURL(name, s string) (*url.URL, error) {
	u, err := url.Parse(s)
	if err != nil {
		return nil, fmt.Errorf("%s: invalid URL: %w", name, err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("%s must be an http or https URL, not %q", name, s)
	}
	return u, nil
}

// String implements Manager. The URL is shown without its credentials.
func (m *HTTP) String() string {
	return fmt.Sprintf("the http backend at %s", m.address.Redacted())
}

// Exists implements Manager.
func (m *HTTP) Exists() bool { return len(m.read) > 0 }

// do sends one request, retrying network errors, 429 and 5xx statuses
// (but 501) as configured. The response body is read and closed.
func (m *HTTP) do(ctx context.Context, method string, u *url.URL, body []byte) (int, []byte, http.Header, error) {
	wait := m.Config.RetryWaitMin
	for attempt := 0; ; attempt++ {
		code, data, hdr, err := m.once(ctx, method, u, body)
		retry := err != nil || code == http.StatusTooManyRequests || (code >= 500 && code != http.StatusNotImplemented)
		if !retry || attempt >= m.Config.RetryMax || ctx.Err() != nil {
			if err != nil && attempt > 0 {
				err = fmt.Errorf("%w (after %d attempts)", err, attempt+1)
			}
			return code, data, hdr, err
		}
		select {
		case <-ctx.Done():
			return 0, nil, nil, ctx.Err()
		case <-time.After(wait):
		}
		wait *= 2
		if wait > m.Config.RetryWaitMax {
			wait = m.Config.RetryWaitMax
		}
	}
}

func (m *HTTP) once(ctx context.Context, method string, u *url.URL, body []byte) (int, []byte, http.Header, error) {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, u.String(), rd)
	if err != nil {
		return 0, nil, nil, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
		sum := md5.Sum(body)
		req.Header.Set("Content-MD5", base64.StdEncoding.EncodeToString(sum[:]))
	}
	if m.Config.Username != "" || m.Config.Password != "" {
		req.SetBasicAuth(m.Config.Username, m.Config.Password)
	}
	resp, err := m.client.Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, nil, nil, err
	}
	return resp.StatusCode, data, resp.Header, nil
}

// statusError describes an unexpected response.
func statusError(what string, code int, body []byte) error {
	switch code {
	case http.StatusUnauthorized:
		return fmt.Errorf("%s: the HTTP remote state endpoint requires authentication (401 Unauthorized)", what)
	case http.StatusForbidden:
		return fmt.Errorf("%s: the HTTP remote state endpoint refused the credentials (403 Forbidden)", what)
	}
	msg := strings.TrimSpace(string(body))
	if len(msg) > 200 {
		msg = msg[:200] + "…"
	}
	if msg != "" {
		msg = ": " + msg
	}
	return fmt.Errorf("%s: unexpected HTTP response %d %s%s", what, code, http.StatusText(code), msg)
}

func resolve(s string) *url.URL {
	u, _ := url.Parse(s) // checked by NewHTTP
	return u
}

// Lock implements Manager: LOCK to lock_address with the lock info,
// retried until timeout while someone else holds it. Without a
// lock_address nothing is locked.
func (m *HTTP) Lock(ctx context.Context, info *LockInfo, timeout time.Duration) error {
	if m.Config.LockAddress == "" {
		return nil
	}
	if m.lockBody != nil {
		return errors.New("the http backend's state lock is already held by this command")
	}
	info.Path = m.address.Redacted()
	body, err := json.Marshal(info)
	if err != nil {
		return err
	}
	deadline := time.Now().Add(timeout)
	delay := 250 * time.Millisecond
	for {
		// ctx is checked between attempts, not during one (see tryLock).
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("http backend: taking the state lock: %w", err)
		}
		err := m.tryLock(ctx, info.ID, body)
		if err == nil {
			m.lockBody, m.lockID = body, info.ID
			return nil
		}
		var le *LockError
		if !errors.As(err, &le) || !time.Now().Before(deadline) {
			return err
		}
		select {
		case <-ctx.Done():
			return &LockError{Info: le.Info, Err: ctx.Err()}
		case <-time.After(delay):
		}
		if delay < 2*time.Second {
			delay *= 2
		}
	}
}

// tryLock makes one attempt to take lock id (body is its info). The
// request is not cut short when ctx is cancelled: one cancelled in flight
// may have locked the state at the server all the same, and a caller told
// that it failed would never unlock it; httpTimeout bounds it instead. A
// server that answers that lock id holds the state (a retried request)
// has given it to us.
func (m *HTTP) tryLock(ctx context.Context, id string, body []byte) error {
	rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), httpTimeout)
	defer cancel()
	code, data, _, err := m.do(rctx, m.Config.LockMethod, resolve(m.Config.LockAddress), body)
	if err != nil {
		return fmt.Errorf("http backend: taking the state lock: %w", err)
	}
	switch code {
	case http.StatusOK, http.StatusNoContent:
		return nil
	case http.StatusLocked, http.StatusConflict:
		var held LockInfo
		if json.Unmarshal(data, &held) != nil || held.ID == "" {
			return &LockError{Err: fmt.Errorf("the state is already locked (HTTP %d), and the server did not say by whom", code)}
		}
		if held.ID == id {
			return nil
		}
		return &LockError{Info: &held, Err: fmt.Errorf("the state is already locked: ID=%s", held.ID)}
	}
	return statusError("http backend: taking the state lock", code, data)
}

// Unlock implements Manager: UNLOCK to unlock_address with the lock info
// sent to LOCK.
func (m *HTTP) Unlock() error {
	if m.lockBody == nil {
		return nil
	}
	body := m.lockBody
	m.lockBody, m.lockID = nil, ""
	if m.Config.UnlockAddress == "" {
		return nil
	}
	return m.unlock(body)
}

func (m *HTTP) unlock(body []byte) error {
	ctx, cancel := context.WithTimeout(context.Background(), httpTimeout)
	defer cancel()
	code, data, _, err := m.do(ctx, m.Config.UnlockMethod, resolve(m.Config.UnlockAddress), body)
	if err != nil {
		return fmt.Errorf("http backend: releasing the state lock: %w", err)
	}
	if code == http.StatusOK || code == http.StatusNoContent {
		return nil
	}
	if code == http.StatusLocked || code == http.StatusConflict {
		var held LockInfo
		if json.Unmarshal(data, &held) == nil && held.ID != "" {
			return fmt.Errorf("http backend: releasing the state lock: the lock is held by someone else (ID %s, %s, %s)", held.ID, held.Who, held.Operation)
		}
	}
	return statusError("http backend: releasing the state lock", code, data)
}

// ForceUnlock implements Manager. The protocol has no way to learn who
// holds the lock, so UNLOCK is sent with a lock info naming only id; the
// server decides whether that releases the lock.
func (m *HTTP) ForceUnlock(id string, confirm func(*LockInfo) bool) (bool, error) {
	if m.Config.UnlockAddress == "" {
		return false, errors.New("the http backend has no unlock_address configured, so there is no lock to release")
	}
	info := &LockInfo{ID: id, Path: m.address.Redacted()}
	if confirm != nil && !confirm(info) {
		return false, nil
	}
	body, err := json.Marshal(info)
	if err != nil {
		return false, err
	}
	if err := m.unlock(body); err != nil {
		return false, err
	}
	return true, nil
}

// Read implements Manager. A journal left by an interrupted apply is
// replayed into the remote state under the lock: when this command does
// not hold it, Read takes it for the recovery, and leaves the journal
// alone if someone else holds it.
func (m *HTTP) Read() (*states.State, []Pending, error) {
	ctx, cancel := context.WithTimeout(context.Background(), httpTimeout)
	defer cancel()
	replay, release, err := m.LockForRecovery(ctx, m.lockBody != nil, m.Config.LockAddress != "", func(ctx context.Context) error {
		return m.Lock(ctx, NewLockInfo("OperationTypeRecover", m.Version), 0)
	}, m.Unlock)
	if err != nil {
		return nil, nil, err
	}
	defer release()
	s, err := m.readSnapshot(ctx)
	if err != nil || !replay {
		return s, nil, err
	}
	return m.Recover(s)
}

func (m *HTTP) readSnapshot(ctx context.Context) (*states.State, error) {
	m.read, m.serial = nil, 0
	code, data, hdr, err := m.do(ctx, http.MethodGet, m.address, nil)
	if err != nil {
		return nil, fmt.Errorf("reading the state from %s: %w", m, err)
	}
	switch code {
	case http.StatusOK:
	case http.StatusNoContent, http.StatusNotFound:
		return FreshState(), nil
	default:
		return nil, statusError("reading the state from "+m.String(), code, data)
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return FreshState(), nil
	}
	if want := hdr.Get("Content-MD5"); want != "" {
		sum := md5.Sum(data)
		if got := base64.StdEncoding.EncodeToString(sum[:]); got != want {
			return nil, fmt.Errorf("reading the state from %s: the body's MD5 %s does not match its Content-MD5 header %s", m, got, want)
		}
	}
	data, err = m.crypt.Open(data)
	if err != nil {
		return nil, fmt.Errorf("failed to load state from %s: %w", m, err)
	}
	s, err := statefile.Read(data)
	if errors.Is(err, statefile.ErrEmpty) {
		return FreshState(), nil
	}
	if err != nil {
		return nil, fmt.Errorf("failed to load state from %s: %w", m, err)
	}
	m.read, m.serial = data, s.Serial
	return s, nil
}

// Write implements Manager: the whole snapshot is sent with update_method,
// with ?ID=<lock ID> while the lock is held.
func (m *HTTP) Write(s *states.State) error {
	return m.write(s, false)
}

// write is Write; with evenEmpty an empty state is stored where none
// was (Write stores none).
func (m *HTTP) write(s *states.State, evenEmpty bool) error {
	data, out, err := m.crypt.Seal(s, m.Version, m.read, m.serial, evenEmpty || m.read != nil)
	if err != nil || data == nil {
		return err
	}
	u := *m.address
	if m.lockID != "" {
		q := u.Query()
		q.Set("ID", m.lockID)
		u.RawQuery = q.Encode()
	}
	ctx, cancel := context.WithTimeout(context.Background(), httpTimeout)
	defer cancel()
	code, body, _, err := m.do(ctx, m.Config.UpdateMethod, &u, out)
	if err != nil {
		return fmt.Errorf("writing the state to %s: %w", m, err)
	}
	switch code {
	case http.StatusOK, http.StatusCreated, http.StatusNoContent:
	default:
		return statusError("writing the state to "+m.String(), code, body)
	}
	m.crypt.Written()
	m.read, m.serial = data, s.Serial
	return nil
}

// Delete removes the stored state (DELETE address).
func (m *HTTP) Delete(ctx context.Context) error {
	code, body, _, err := m.do(ctx, http.MethodDelete, m.address, nil)
	if err != nil {
		return fmt.Errorf("deleting the state at %s: %w", m, err)
	}
	switch code {
	case http.StatusOK, http.StatusNoContent, http.StatusNotFound:
		m.read, m.serial = nil, 0
		return nil
	}
	return statusError("deleting the state at "+m.String(), code, body)
}
