// Package pgtest gives tests a PostgreSQL database of their own, on a real
// server: the one STRATA_TEST_PG_CONN names, or else a throwaway cluster
// it starts from the PostgreSQL binaries installed on the machine
// (Debian's postgresql package: /usr/lib/postgresql/*/bin). With neither,
// the tests that need it are skipped with a message saying how to run
// them.
//
// It is a test helper: nothing but tests imports it.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// EnvConn is the environment variable naming the server to test against:
// a postgres:// URL (or key=value connection string) of a role that may
// create databases.
const EnvConn = "STRATA_TEST_PG_CONN"

const skipHelp = "no PostgreSQL server for the pg backend tests: set " + EnvConn +
	"=postgres://USER@HOST:PORT/postgres?sslmode=disable (a role that may create databases), " +
	"or install PostgreSQL's server binaries (apt-get install postgresql) so that the tests start a throwaway cluster, " +
	"or run bash .ci/run, which does both"

var (
	once     sync.Once
	adminURL string
	startErr error
)

// ConnString returns a connection string to a new, empty database, which
// is dropped when t ends. It skips t when no server can be had.
func ConnString(t testing.TB) string {
	t.Helper()
	admin := Server(t)
	name := "strata_test_" + randomHex(6)
	if err := adminExec(admin, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("pgtest: creating a database on %s: %v", redact(admin), err)
	}
	t.Cleanup(func() {
		if err := adminExec(admin, "DROP DATABASE IF EXISTS "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("pgtest: dropping %s: %v", name, err)
		}
	})
	return WithDatabase(admin, name)
}

// The databases are created and dropped through one session of the
// test process, kept open: a session costs the server a process, and
// tests create dozens of databases.
var admin struct {
	sync.Mutex
	url  string
	conn *pgx.Conn
}

// adminExec runs stmt on the maintenance database of the server at url,
// connecting (again) when the kept session is missing or ended.
func adminExec(url, stmt string) error {
	admin.Lock()
	defer admin.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if admin.conn == nil || admin.conn.IsClosed() || admin.url != url {
		if admin.conn != nil {
			admin.conn.Close(ctx)
		}
		c, err := pgx.Connect(ctx, url)
		if err != nil {
			return err
		}
		admin.conn, admin.url = c, url
	}
	_, err := admin.conn.Exec(ctx, stmt)
	return err
}

// Server returns the connection string of the server's maintenance
// database, starting a throwaway cluster on first use when
// STRATA_TEST_PG_CONN is not set. It skips t when no server can be had.
func Server(t testing.TB) string {
	t.Helper()
	if s := os.Getenv(EnvConn); s != "" {
		return s
	}
	once.Do(func() { adminURL, startErr = startCluster() })
	if startErr == errNoBinaries {
		t.Skip(skipHelp)
	}
	if startErr != nil {
		t.Fatalf("pgtest: starting a throwaway PostgreSQL cluster: %v", startErr)
	}
	return adminURL
}

// WithDatabase returns conn with its database replaced by db.
func WithDatabase(conn, db string) string {
	if strings.HasPrefix(conn, "postgres://") || strings.HasPrefix(conn, "postgresql://") {
		if u, err := url.Parse(conn); err == nil {
			u.Path = "/" + db
			return u.String()
		}
	}
	return conn + " dbname=" + db
}

func redact(conn string) string {
	if u, err := url.Parse(conn); err == nil && u.User != nil {
		if _, ok := u.User.Password(); ok {
			u.User = url.UserPassword(u.User.Username(), "xxxxx")
		}
		return u.String()
	}
	return conn
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

var errNoBinaries = fmt.Errorf("no PostgreSQL server binaries")

// binDir finds the newest installed PostgreSQL's bin directory.
func binDir() string {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	var found []string
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			found = append(found, d)
		}
	}
	if len(found) == 0 {
		if p, err := exec.LookPath("initdb"); err == nil {
			return filepath.Dir(p)
		}
		return ""
	}
	sort.Slice(found, func(i, j int) bool {
		vi, _ := strconv.Atoi(filepath.Base(filepath.Dir(found[i])))
		vj, _ := strconv.Atoi(filepath.Base(filepath.Dir(found[j])))
		return vi < vj
	})
	return found[len(found)-1]
}

// startCluster initialises a cluster in a temporary directory and runs
// its server on a free loopback port, as the postgres user when this
// process is root (the server refuses to run as root). The server gets
// SIGQUIT (immediate shutdown) when this process exits, however it exits;
// directories left by earlier processes are removed.
func startCluster() (string, error) {
	bin := binDir()
	if bin == "" {
		return "", errNoBinaries
	}
	removeStale()
	var cred *syscall.Credential
	uid, gid := -1, -1
	if os.Geteuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			return "", fmt.Errorf("running as root needs the postgres user to run the server: %w", err)
		}
		uid, _ = strconv.Atoi(u.Uid)
		gid, _ = strconv.Atoi(u.Gid)
		cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	}
	dir, err := os.MkdirTemp("", "strata-pgtest-")
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "owner.pid"), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
		return "", err
	}
	if uid >= 0 {
		if err := os.Chown(dir, uid, gid); err != nil {
			return "", err
		}
	}
	data := filepath.Join(dir, "data")
	initdb := exec.Command(filepath.Join(bin, "initdb"), "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync")
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := initdb.CombinedOutput(); err != nil {
		return "", fmt.Errorf("initdb: %v\n%s", err, out)
	}
	port, err := freePort()
	if err != nil {
		return "", err
	}
	logf, err := os.Create(filepath.Join(dir, "server.log"))
	if err != nil {
		return "", err
	}
	started := make(chan error, 1)
	go func() {
		// Pdeathsig follows the thread that started the child: keep it.
		runtime.LockOSThread()
		srv := exec.Command(filepath.Join(bin, "postgres"), "-D", data, "-p", strconv.Itoa(port), "-k", dir,
			"-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "max_connections=200")
		srv.Stdout, srv.Stderr = logf, logf
		srv.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGQUIT}
		if err := srv.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		_ = srv.Wait()
		select {} // the thread must outlive the process's use of the server
	}()
	if err := <-started; err != nil {
		return "", fmt.Errorf("starting postgres: %w", err)
	}
	conn := fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
	deadline := time.Now().Add(60 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		c, err := pgx.Connect(ctx, conn)
		cancel()
		if err == nil {
			c.Close(context.Background())
			return conn, nil
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(dir, "server.log"))
			return "", fmt.Errorf("the server did not accept connections: %v\n%s", err, log)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// removeStale deletes the clusters of test processes that have exited.
func removeStale() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), "strata-pgtest-*"))
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "owner.pid"))
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || pid == os.Getpid() {
			continue
		}
		if syscall.Kill(pid, 0) == syscall.ESRCH {
			os.RemoveAll(d)
		}
	}
}

// conns are the sessions Conn keeps, by test and connection string.
var conns sync.Map

type connKey struct {
	t    testing.TB
	conn string
}

// Conn returns a session on the database conn names, opened by t's first
// call and closed when t ends, so that a test's helpers share one
// instead of opening a session each (a session costs the server a
// process). It is not for concurrent use.
func Conn(t testing.TB, conn string) *pgx.Conn {
	t.Helper()
	key := connKey{t, conn}
	if c, ok := conns.Load(key); ok && !c.(*pgx.Conn).IsClosed() {
		return c.(*pgx.Conn)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	c, err := pgx.Connect(ctx, conn)
	if err != nil {
		t.Fatalf("pgtest: connecting to %s: %v", redact(conn), err)
	}
	conns.Store(key, c)
	t.Cleanup(func() {
		conns.CompareAndDelete(key, c)
		c.Close(context.Background())
	})
	return c
}
