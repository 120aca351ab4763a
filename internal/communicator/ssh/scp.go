package ssh

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// DefaultShebang starts an uploaded script that has none.
const DefaultShebang = "#!/bin/sh\n"

// Upload copies what r holds to the file dst on the host, with mode
// 0644, using the remote scp in sink mode, as Terraform does: the
// remote directory is dst's directory and the file is named after its
// last element, so a dst ending in a slash names a file inside it.
func (c *Communicator) Upload(ctx context.Context, dst string, r io.Reader) error {
	dir, name := path.Dir(dst), path.Base(dst)
	if c.cfg.TargetPlatform == TargetPlatformWindows {
		dir = "'" + dir + "'"
	}
	size, body, err := sized(r)
	if err != nil {
		return err
	}
	return c.scp(ctx, "'scp' -vt "+dir, func(w io.Writer, ack *bufio.Reader) error {
		return scpFile(w, ack, name, size, body)
	})
}

// UploadScript uploads a script as Upload does, starting it with
// DefaultShebang unless it starts with "#!", and makes it executable
// (mode 0777) on a unix host.
func (c *Communicator) UploadScript(ctx context.Context, dst string, r io.Reader) error {
	var script bytes.Buffer
	if _, err := script.ReadFrom(r); err != nil {
		return fmt.Errorf("Error reading script: %s", err)
	}
	if !bytes.HasPrefix(script.Bytes(), []byte("#!")) && c.cfg.TargetPlatform != TargetPlatformWindows {
		script = *bytes.NewBuffer(append([]byte(DefaultShebang), script.Bytes()...))
	}
	if err := c.Upload(ctx, dst, &script); err != nil {
		return err
	}
	if c.cfg.TargetPlatform == TargetPlatformWindows {
		return nil
	}
	var out lockedBuffer
	if err := c.Run(ctx, "chmod 0777 "+dst, &out, &out); err != nil {
		return fmt.Errorf("Error chmodding script file to 0777 in remote machine %v: %s", err, strings.TrimSpace(out.String()))
	}
	return nil
}

// UploadDir copies the local directory src to dst on the host, as
// Terraform does: without a trailing slash, src itself is copied, so that
// dst becomes the copy when it does not exist and holds it when it does;
// with one, only what src holds is copied into dst, which must exist.
// Files get mode 0644, directories 0755.
func (c *Communicator) UploadDir(ctx context.Context, dst, src string) error {
	return c.scp(ctx, "'scp' -rvt "+dst, func(w io.Writer, ack *bufio.Reader) error {
		if !strings.HasSuffix(src, "/") {
			return scpDir(w, ack, filepath.Base(src), func() error { return scpDirEntries(w, ack, src) })
		}
		return scpDirEntries(w, ack, src)
	})
}

// scp runs command, an scp in sink mode, and speaks its protocol with
// send. The command's exit status, when it fails, takes precedence over
// the protocol error it caused.
func (c *Communicator) scp(ctx context.Context, command string, send func(w io.Writer, ack *bufio.Reader) error) error {
	if c.client == nil {
		return errors.New("not connected")
	}
	s, err := c.client.NewSession()
	if err != nil {
		return fmt.Errorf("failed to open SSH session: %w", err)
	}
	defer s.Close()
	w, err := s.StdinPipe()
	if err != nil {
		return err
	}
	out, err := s.StdoutPipe()
	if err != nil {
		return err
	}
	var stderr bytes.Buffer
	s.Stderr = &stderr
	if err := s.Start(command); err != nil {
		return err
	}
	ack := bufio.NewReader(out)
	perr := checkAck(ack)
	if perr == nil {
		perr = send(w, ack)
	}
	w.Close()
	if perr != nil {
		// Let the remote end finish, so its status can be reported.
		go io.Copy(io.Discard, ack)
	}
	werr := wait(ctx, s)
	if werr != nil {
		return werr
	}
	return perr
}

// checkAck reads the remote scp's answer to the last message: a zero
// byte, or 1 (warning) or 2 (error) followed by a message line.
func checkAck(r *bufio.Reader) error {
	b, err := r.ReadByte()
	if err != nil {
		return fmt.Errorf("error reading server response: %w", err)
	}
	if b == 0 {
		return nil
	}
	msg, _ := r.ReadString('\n')
	return fmt.Errorf("scp: %s", strings.TrimSpace(msg))
}

// sized returns r's size and a reader for its bytes: a regular file is
// streamed, anything else read into memory first.
func sized(r io.Reader) (int64, io.Reader, error) {
	if f, ok := r.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			return fi.Size(), f, nil
		}
	}
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(r); err != nil {
		return 0, nil, fmt.Errorf("error reading upload: %w", err)
	}
	return int64(buf.Len()), &buf, nil
}

func scpFile(w io.Writer, ack *bufio.Reader, name string, size int64, body io.Reader) error {
	if _, err := fmt.Fprintf(w, "C0644 %d %s\n", size, name); err != nil {
		return err
	}
	if err := checkAck(ack); err != nil {
		return err
	}
	if _, err := io.CopyN(w, body, size); err != nil {
		return fmt.Errorf("error copying %s: %w", name, err)
	}
	if _, err := w.Write([]byte{0}); err != nil {
		return err
	}
	return checkAck(ack)
}

func scpDir(w io.Writer, ack *bufio.Reader, name string, contents func() error) error {
	if _, err := fmt.Fprintf(w, "D0755 0 %s\n", name); err != nil {
		return err
	}
	if err := checkAck(ack); err != nil {
		return err
	}
	if err := contents(); err != nil {
		return err
	}
	if _, err := fmt.Fprintln(w, "E"); err != nil {
		return err
	}
	return checkAck(ack)
}

// scpDirEntries sends what the local directory dir holds, in name order,
// following symbolic links.
func scpDirEntries(w io.Writer, ack *bufio.Reader, dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].Name() < entries[j].Name() })
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		fi, err := os.Stat(p)
		if err != nil {
			return err
		}
		if fi.IsDir() {
			if err := scpDir(w, ack, e.Name(), func() error { return scpDirEntries(w, ack, p) }); err != nil {
				return err
			}
			continue
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		err = scpFile(w, ack, e.Name(), fi.Size(), f)
		f.Close()
		if err != nil {
			return err
		}
	}
	return nil
}

// lockedBuffer is a bytes.Buffer that a command's stdout and stderr can
// share: the session copies each in its own goroutine.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
