package firewall

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestHAProxyGolden(t *testing.T) {
	checkGolden(t, "blocklist.haproxy.acl", writeFile(t, "haproxy", "blocklist.haproxy.acl", fixtureList(t)))
}

// haproxyConf is the minimal configuration haproxy -c and the server run
// with: a frontend on 127.0.0.1:port that denies the clients in the file
// (-n: a line that is not an address is an error, never a DNS lookup) and
// answers 200 to the others without a backend server.
func haproxyConf(file string, port int) string {
	return fmt.Sprintf(`global
    log stderr format raw local0 err

defaults
    mode http
    timeout connect 1s
    timeout client 5s
    timeout server 5s

frontend web
    bind 127.0.0.1:%[2]d
    acl blocked src -n -f %[1]s
    http-request deny if blocked
    http-request return status 200 content-type text/plain string ok
    default_backend none

backend none
`, file, port)
}

// haproxyCheck runs haproxy -c on a configuration using the pattern file
// data and returns its output and error.
func haproxyCheck(t *testing.T, haproxy string, data []byte) (string, error) {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "blocklist.haproxy.acl")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "haproxy.cfg")
	if err := os.WriteFile(cfg, []byte(haproxyConf(file, loopbackPort(t))), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(haproxy, "-c", "-f", cfg).CombinedOutput()
	return string(out), err
}

func TestHAProxyAccepts(t *testing.T) {
	haproxy := serverTool(t, "haproxy")
	for _, tc := range serverLists(t) {
		t.Run(tc.name, func(t *testing.T) {
			data := writeFile(t, "haproxy", "blocklist.haproxy.acl", tc.list)
			out, err := haproxyCheck(t, haproxy, data)
			if err != nil || !strings.Contains(out, "Configuration file is valid") {
				t.Fatalf("haproxy -c: %v\n%s\nfile:\n%s", err, out, data)
			}
			if strings.Contains(out, "[WARNING]") || strings.Contains(out, "[ALERT]") {
				t.Errorf("haproxy -c warns:\n%s", out)
			}
			t.Logf("haproxy -c: %s", out)
			rules := ruleLines(data)
			var want []string
			for _, b := range tc.list.Blocks {
				want = append(want, b.String())
			}
			if strings.Join(rules, "\n") != strings.Join(want, "\n") {
				t.Fatalf("patterns:\n%s\nwant:\n%s", strings.Join(rules, "\n"), strings.Join(want, "\n"))
			}
			// Each pattern is at the start of its line, its reason on the
			// line before; a comment is a '#' in the first column.
			lines := strings.Split(string(data), "\n")
			for i, line := range lines {
				if line != "" && line[0] != '#' && (i == 0 || !strings.HasPrefix(lines[i-1], "# ")) {
					t.Errorf("line %d %q has no reason before it", i+1, line)
				}
			}
		})
	}
}

// TestHAProxyTrailingText shows why the reasons are on lines of their own:
// HAProxy takes the rest of a line as part of the pattern, so a '#' after
// an address is not a comment and, with -n, makes the file invalid.
func TestHAProxyTrailingText(t *testing.T) {
	haproxy := serverTool(t, "haproxy")
	for _, tc := range []struct {
		file  string
		valid bool
	}{
		{"# reason\n192.0.2.10\n", true},
		{"   192.0.2.10\n\n", true},
		{"192.0.2.10  # reason\n", false},
	} {
		out, err := haproxyCheck(t, haproxy, []byte(tc.file))
		if valid := err == nil && strings.Contains(out, "Configuration file is valid"); valid != tc.valid {
			t.Errorf("pattern file %q: valid %v, want %v\n%s", tc.file, valid, tc.valid, out)
		}
	}
}

// TestHAProxyDenies runs haproxy on loopback with the file and checks that
// a listed client is refused (403) and one not listed is answered (200).
func TestHAProxyDenies(t *testing.T) {
	haproxy := serverTool(t, "haproxy")
	needLoopbackSources(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "blocklist.haproxy.acl")
	if err := os.WriteFile(file, writeFile(t, "haproxy", "blocklist.haproxy.acl", loopbackList()), 0o644); err != nil {
		t.Fatal(err)
	}
	port := loopbackPort(t)
	cfg := filepath.Join(dir, "haproxy.cfg")
	if err := os.WriteFile(cfg, []byte(haproxyConf(file, port)), 0o644); err != nil {
		t.Fatal(err)
	}
	output := startServer(t, exec.Command(haproxy, "-db", "-f", cfg))
	url := "http://127.0.0.1:" + strconv.Itoa(port) + "/"
	for _, tc := range []struct {
		src  string
		want int
	}{
		{"127.0.0.3", http.StatusOK},        // not listed
		{"127.0.0.2", http.StatusForbidden}, // listed alone
		{"127.0.0.9", http.StatusForbidden}, // inside the listed /30
		{"127.0.0.12", http.StatusOK},       // just past it
	} {
		if got := statusFrom(t, tc.src, url); got != tc.want {
			t.Errorf("GET from %s: status %d, want %d\n%s", tc.src, got, tc.want, output)
		}
	}
}
