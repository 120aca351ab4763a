package initwd

import (
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/strata-dev/strata/internal/addrs"
)

// fetchHTTP installs an http(s) package into dst, as go-getter's HTTP
// getter does: a URL whose path ends in an archive extension, or that has
// an "archive" argument, is downloaded and unpacked; any other URL is
// asked (with terraform-get=1 added) where the package is, which it
// answers with an X-Terraform-Get header or an HTML page holding a
// <meta name="terraform-get" content="..."> tag. That address is any
// remote source (git::, another URL...) and may be relative to the page.
// It returns the subdirectory the address pointed to selects.
func (f *fetcher) fetchHTTP(raw, dst string, hops int) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", err
	}
	if format := archiveFormat(u); format != "" {
		q := u.Query()
		if q.Has("archive") {
			q.Del("archive")
			u.RawQuery = q.Encode()
		}
		return "", f.downloadArchive(u, format, dst)
	}
	if hops >= maxRedirects {
		return "", fmt.Errorf("%s points to another location after %d others; giving up", raw, hops)
	}
	ask := *u
	q := ask.Query()
	q.Set("terraform-get", "1")
	ask.RawQuery = q.Encode()
	resp, err := f.get(&ask)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	target := resp.Header.Get("X-Terraform-Get")
	if target == "" {
		body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		if err != nil {
			return "", err
		}
		target = terraformGetMeta(body)
	}
	if target == "" {
		return "", fmt.Errorf("no source URL was returned by %s: it answered neither with an X-Terraform-Get header nor with a terraform-get meta tag, and its address does not end in an archive extension (add ?archive=zip or ?archive=tar.gz to a URL that serves an archive)", raw)
	}
	next, err := resolvePackageAddr(u, target)
	if err != nil {
		return "", fmt.Errorf("%s points to %q: %w", raw, target, err)
	}
	sub, err := f.fetchPackage(next, dst, hops+1)
	if err != nil {
		return "", err
	}
	return joinSubdir(sub, next.Subdir), nil
}

// get makes a GET request that must succeed.
func (f *fetcher) get(u *url.URL) (*http.Response, error) {
	req, err := http.NewRequestWithContext(f.ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, err
	}
	client := f.client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		resp.Body.Close()
		return nil, fmt.Errorf("bad response code: %d", resp.StatusCode)
	}
	return resp, nil
}

// downloadArchive downloads an archive next to dst (inside the modules
// directory) and unpacks it into dst.
func (f *fetcher) downloadArchive(u *url.URL, format, dst string) error {
	resp, err := f.get(u)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".archive-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := io.Copy(tmp, resp.Body); err != nil {
		tmp.Close()
		return fmt.Errorf("downloading %s: %w", u.Redacted(), err)
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return unpackArchive(format, tmp.Name(), dst)
}

var (
	metaTag     = regexp.MustCompile(`(?is)<meta\s[^>]*>`)
	metaAttr    = regexp.MustCompile(`(?is)([a-z-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')`)
	metaGetName = "terraform-get"
)

// terraformGetMeta returns the content of the first
// <meta name="terraform-get" content="..."> tag of an HTML page.
func terraformGetMeta(body []byte) string {
	for _, tag := range metaTag.FindAll(body, -1) {
		attrs := map[string]string{}
		for _, m := range metaAttr.FindAllSubmatch(tag, -1) {
			v := string(m[2])
			if len(m[3]) > 0 {
				v = string(m[3])
			}
			attrs[strings.ToLower(string(m[1]))] = html.UnescapeString(v)
		}
		if attrs["name"] == metaGetName && attrs["content"] != "" {
			return attrs["content"]
		}
	}
	return ""
}

// resolvePackageAddr reads the address a registry or a page pointed to:
// any remote source, where one without a scheme or forced getter ("/x",
// "./x.zip", "../v2.tar.gz") is relative to base.
func resolvePackageAddr(base *url.URL, target string) (addrs.ModuleSourceRemote, error) {
	pkg, subdir := addrs.SplitPackageSubdir(target)
	if !strings.Contains(pkg, "::") && !strings.Contains(pkg, "://") &&
		(strings.HasPrefix(pkg, "/") || strings.HasPrefix(pkg, "./") || strings.HasPrefix(pkg, "../") || strings.HasPrefix(pkg, "?")) {
		ref, err := url.Parse(pkg)
		if err != nil {
			return addrs.ModuleSourceRemote{}, err
		}
		pkg = base.ResolveReference(ref).String()
		if subdir != "" {
			target = addrs.ModuleSourceRemote{Package: pkg, Subdir: subdir}.String()
		} else {
			target = pkg
		}
	}
	return addrs.ParseModuleSourceRemote(target)
}

// joinSubdir joins subdirectories, either of which may be empty.
func joinSubdir(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "/" + b
}
