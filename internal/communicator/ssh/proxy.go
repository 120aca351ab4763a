package ssh

import (
	"bufio"
	"crypto/tls"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"

	"golang.org/x/net/proxy"
)

// Proxy is an HTTP, HTTPS or SOCKS5 proxy the first hop of the connection
// (the bastion when there is one) goes through.
type Proxy struct {
	Scheme       string
	Host         string
	Port         int
	UserName     string
	UserPassword string
}

func init() {
	// x/net/proxy knows SOCKS5; HTTP proxies tunnel with CONNECT.
	proxy.RegisterDialerType("http", newHTTPProxy)
	proxy.RegisterDialerType("https", newHTTPProxy)
}

// dialer returns what dials the first hop: p when it is not nil, directly
// otherwise.
func (p *Proxy) dialer() (proxy.Dialer, error) {
	direct := &net.Dialer{Timeout: dialTimeout}
	if p == nil {
		return direct, nil
	}
	u := &url.URL{Scheme: p.Scheme, Host: net.JoinHostPort(p.Host, strconv.Itoa(p.Port))}
	if p.UserName != "" {
		u.User = url.UserPassword(p.UserName, p.UserPassword)
	}
	return proxy.FromURL(u, direct)
}

// httpProxy tunnels connections through an HTTP proxy with CONNECT.
type httpProxy struct {
	u       *url.URL
	forward proxy.Dialer
}

func newHTTPProxy(u *url.URL, forward proxy.Dialer) (proxy.Dialer, error) {
	return &httpProxy{u: u, forward: forward}, nil
}

// Dial implements proxy.Dialer.
func (p *httpProxy) Dial(network, addr string) (net.Conn, error) {
	conn, err := p.forward.Dial("tcp", p.u.Host)
	if err != nil {
		return nil, fmt.Errorf("Error connecting to proxy: %s", err)
	}
	if p.u.Scheme == "https" {
		tc := tls.Client(conn, &tls.Config{ServerName: p.u.Hostname()})
		if err := tc.Handshake(); err != nil {
			conn.Close()
			return nil, fmt.Errorf("Error connecting to proxy: %s", err)
		}
		conn = tc
	}
	req := &http.Request{Method: http.MethodConnect, URL: &url.URL{Opaque: addr}, Host: addr, Header: http.Header{}}
	if p.u.User != nil {
		pw, _ := p.u.User.Password()
		req.Header.Set("Proxy-Authorization", "Basic "+base64.StdEncoding.EncodeToString([]byte(p.u.User.Username()+":"+pw)))
	}
	if err := req.Write(conn); err != nil {
		conn.Close()
		return nil, fmt.Errorf("Error connecting to proxy: %s", err)
	}
	r := bufio.NewReader(conn)
	resp, err := http.ReadResponse(r, req)
	if err != nil {
		conn.Close()
		return nil, fmt.Errorf("Error connecting to proxy: %s", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		conn.Close()
		return nil, fmt.Errorf("Error connecting to proxy: %s", resp.Status)
	}
	// The SSH server speaks first: what the reader already holds is the
	// start of the tunnelled stream.
	return &bufferedConn{Conn: conn, r: r}, nil
}

type bufferedConn struct {
	net.Conn
	r *bufio.Reader
}

func (c *bufferedConn) Read(p []byte) (int, error) { return c.r.Read(p) }
