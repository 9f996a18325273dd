package firewall

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func TestNginxGolden(t *testing.T) {
	checkGolden(t, "blocklist.nginx.conf", writeFile(t, "nginx", "blocklist.nginx.conf", fixtureList(t)))
}

// The helpers below are shared by the nginx, Apache and HAProxy tests.

// serverTool returns the path of a server's program, from PATH or /usr/sbin
// (where Debian puts nginx, apache2 and haproxy), or skips the test.
func serverTool(t *testing.T, name string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	p := filepath.Join("/usr/sbin", name)
	if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
		return p
	}
	skipNoTool(t, "%s is not installed (neither in PATH nor in /usr/sbin): cannot check the file with it", name)
	return ""
}

// serverLists are the lists every server must accept: the fixture, an
// empty list, an IPv6-only list and one whose bot names try to end a
// comment, a directive or a block in each server's syntax.
func serverLists(t *testing.T) []struct {
	name string
	list *List
} {
	t.Helper()
	meta := fixtureList(t).Meta
	t0 := fixtureTime.Add(-48 * time.Hour)
	entry := func(addr string, bot string) Entry {
		e := Entry{Addr: netip.MustParseAddr(addr), Claims: []Claim{{Bot: bot, Identity: "unverified"}}, FirstSeen: t0, LastSeen: fixtureTime}
		e.Counts[Disallowed] = 3
		return e
	}
	build := func(es ...Entry) *List {
		l, _ := Build(es, Options{}, meta)
		return l
	}
	hostile := []string{
		`"`, "\n", "}", ";", "#", "$(reboot)", "`id`", "\u2028", "\r\ndeny all;",
		"</RequireAll>", "deny all;", "allow all;", "\\", "'", "{", "\x00", "Require all granted",
		"a\nRequire all denied", "# x\n0.0.0.0/0", "<Directory />", "include /etc/passwd;",
	}
	var hs []Entry
	for i, name := range hostile {
		hs = append(hs, entry(fmt.Sprintf("203.0.113.%d", 2*i+1), name))
	}
	hs = append(hs, entry("2001:db8:dead::1", strings.Join(hostile, "")))
	return []struct {
		name string
		list *List
	}{
		{"fixture", fixtureList(t)},
		{"empty", build()},
		{"ipv6 only", build(
			entry("2001:db8::", "GPTBot"), entry("2001:db8::1", "GPTBot"), entry("2001:db8::2", "GPTBot"), entry("2001:db8::3", "GPTBot"),
			entry("2001:db8:1::5", "ClaudeBot"), entry("fe80::1", "CCBot"),
		)},
		{"hostile names", build(hs...)},
	}
}

// loopbackPort returns a TCP port on 127.0.0.1 that was free a moment ago.
func loopbackPort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// ruleLines returns the lines of a file that are neither empty nor comments
// (a '#' after optional spaces), spaces around them trimmed.
func ruleLines(data []byte) []string {
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out
}

// loopbackList is a list blocking 127.0.0.2 and 127.0.0.8/30, which a
// client can take as its source address on Linux to be refused; 127.0.0.3
// stays allowed. Build never lists loopback addresses, so it is made by hand.
func loopbackList() *List {
	e := func(a string) Entry {
		x := Entry{Addr: netip.MustParseAddr(a), Claims: []Claim{{Bot: "evil}bot;\n# x", Identity: "spoofed"}}}
		x.Counts[Spoofed] = 1
		return x
	}
	es := []Entry{e("127.0.0.2"), e("127.0.0.8"), e("127.0.0.9"), e("127.0.0.10"), e("127.0.0.11")}
	return &List{
		Entries: es,
		Blocks: []Block{
			{Prefix: netip.MustParsePrefix("127.0.0.2/32"), Entries: es[:1]},
			{Prefix: netip.MustParsePrefix("127.0.0.8/30"), Entries: es[1:]},
		},
		Meta: Meta{Tool: "crawlaudit test", Made: fixtureTime},
	}
}

// needLoopbackSources skips the test unless this system lets a client take
// any 127.0.0.0/8 address as its source (Linux does; macOS only 127.0.0.1).
func needLoopbackSources(t *testing.T) {
	t.Helper()
	for _, a := range []string{"127.0.0.2", "127.0.0.9"} {
		ln, err := net.Listen("tcp", a+":0")
		if err != nil {
			t.Skipf("cannot use %s as a source address: %v", a, err)
		}
		ln.Close()
	}
}

// statusFrom makes a GET request to url from the source address src and
// returns the response's status code, retrying while the server starts.
func statusFrom(t *testing.T, src, url string) int {
	t.Helper()
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(src)}, Timeout: time.Second}
	c := &http.Client{Timeout: time.Second, Transport: &http.Transport{DialContext: d.DialContext, DisableKeepAlives: true}}
	var err error
	for deadline := time.Now().Add(1500 * time.Millisecond); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		var resp *http.Response
		resp, err = c.Get(url)
		if err == nil {
			resp.Body.Close()
			return resp.StatusCode
		}
	}
	t.Fatalf("GET %s from %s: %v", url, src, err)
	return 0
}

// serverOutput collects a server's output while the test reads it.
type serverOutput struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (o *serverOutput) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.Write(p)
}

func (o *serverOutput) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.String()
}

// startServer starts cmd, stops it at the end of the test (SIGTERM, then
// SIGKILL after 2 s) and returns its output so far, for error messages.
func startServer(t *testing.T, cmd *exec.Cmd) *serverOutput {
	t.Helper()
	out := &serverOutput{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Fatalf("%s: %v", cmd, err)
	}
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
		case <-time.After(2 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	return out
}

// nginxConf is the minimal configuration nginx -t is run with: every path
// inside dir, the block list included in the http and server blocks and in
// a location.
func nginxConf(t *testing.T, nginx, dir, include string, port int) string {
	t.Helper()
	v, _ := exec.Command(nginx, "-V").CombinedOutput()
	var temps strings.Builder
	temps.WriteString("    client_body_temp_path " + filepath.Join(dir, "body") + ";\n")
	for _, m := range []string{"proxy", "fastcgi", "uwsgi", "scgi"} {
		if !strings.Contains(string(v), "--without-http_"+m+"_module") {
			fmt.Fprintf(&temps, "    %s_temp_path %s;\n", m, filepath.Join(dir, m))
		}
	}
	return fmt.Sprintf(`pid %[1]s/nginx.pid;
error_log %[1]s/error.log;
events {}
http {
    access_log %[1]s/access.log;
%[2]s    include %[3]s;
    server {
        listen 127.0.0.1:%[4]d;
        include %[3]s;
        location / {
            include %[3]s;
            root %[1]s/www;
        }
    }
}
`, dir, temps.String(), include, port)
}

func TestNginxAccepts(t *testing.T) {
	nginx := serverTool(t, "nginx")
	for _, tc := range serverLists(t) {
		t.Run(tc.name, func(t *testing.T) {
			data := writeFile(t, "nginx", "blocklist.nginx.conf", tc.list)
			dir := t.TempDir()
			file := filepath.Join(dir, "blocklist.nginx.conf")
			if err := os.WriteFile(file, data, 0o644); err != nil {
				t.Fatal(err)
			}
			conf := filepath.Join(dir, "nginx.conf")
			if err := os.WriteFile(conf, []byte(nginxConf(t, nginx, dir, file, loopbackPort(t))), 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(nginx, "-t", "-e", "stderr", "-p", dir, "-c", conf).CombinedOutput()
			if err != nil || !strings.Contains(string(out), "syntax is ok") || !strings.Contains(string(out), "test is successful") {
				t.Fatalf("nginx -t: %v\n%s\nfile:\n%s", err, out, data)
			}
			t.Logf("nginx -t: %s", out)
			if strings.Contains(string(out), "[warn]") {
				t.Errorf("nginx -t warns:\n%s", out)
			}
			rules := ruleLines(data)
			if len(rules) != len(tc.list.Blocks) {
				t.Fatalf("%d rule lines for %d blocks:\n%s", len(rules), len(tc.list.Blocks), data)
			}
			for i, b := range tc.list.Blocks {
				if want := "deny " + b.String() + ";  # " + b.Reason(); rules[i] != want {
					t.Errorf("line %d = %q, want %q", i, rules[i], want)
				}
			}
		})
	}
}

// TestNginxDenies runs nginx on loopback with the file included before the
// location's own rules, and checks that a listed client is refused, one
// not listed goes on to the location's rules, and that those rules still
// decide (no allow all in the file).
func TestNginxDenies(t *testing.T) {
	nginx := serverTool(t, "nginx")
	needLoopbackSources(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "blocklist.nginx.conf")
	if err := os.WriteFile(file, writeFile(t, "nginx", "blocklist.nginx.conf", loopbackList()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "www"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "www", "index.html"), []byte("ok\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	port := loopbackPort(t)
	conf := fmt.Sprintf(`daemon off;
master_process off;
pid %[1]s/nginx.pid;
error_log %[1]s/error.log;
events {}
http {
    access_log off;
    client_body_temp_path %[1]s/body;
    server {
        listen 127.0.0.1:%[3]d;
        location / {
            include %[2]s;
            deny 127.0.0.4;
            root %[1]s/www;
        }
    }
}
`, dir, file, port)
	if err := os.WriteFile(filepath.Join(dir, "nginx.conf"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	output := startServer(t, exec.Command(nginx, "-e", "stderr", "-p", dir, "-c", filepath.Join(dir, "nginx.conf")))
	url := "http://127.0.0.1:" + strconv.Itoa(port) + "/"
	for _, tc := range []struct {
		src  string
		want int
	}{
		{"127.0.0.3", http.StatusOK},        // not listed, allowed by the location
		{"127.0.0.2", http.StatusForbidden}, // listed alone
		{"127.0.0.9", http.StatusForbidden}, // inside the listed /30
		{"127.0.0.12", http.StatusOK},       // just past it
		{"127.0.0.4", http.StatusForbidden}, // not listed, denied by the location's own rule after the include
	} {
		if got := statusFrom(t, tc.src, url); got != tc.want {
			log, _ := os.ReadFile(filepath.Join(dir, "error.log"))
			t.Errorf("GET from %s: status %d, want %d\n%s%s", tc.src, got, tc.want, output, log)
		}
	}
}
