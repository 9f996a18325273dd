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

func TestApacheGolden(t *testing.T) {
	checkGolden(t, "blocklist.apache.conf", writeFile(t, "apache", "blocklist.apache.conf", fixtureList(t)))
}

// apacheModules returns the LoadModule lines for the modules the test
// configurations need and apache2 was not built with: an MPM, unixd,
// authz_core and authz_host, from Debian's module directory.
func apacheModules(t *testing.T, apache string) string {
	t.Helper()
	out, err := exec.Command(apache, "-l").CombinedOutput()
	if err != nil {
		t.Fatalf("%s -l: %v\n%s", apache, err, out)
	}
	builtin := string(out)
	dir := "/usr/lib/apache2/modules"
	var b strings.Builder
	for _, m := range []struct{ name, file, builtin string }{
		{"mpm_event_module", "mod_mpm_event.so", "event.c"},
		{"unixd_module", "mod_unixd.so", "mod_unixd.c"},
		{"authz_core_module", "mod_authz_core.so", "mod_authz_core.c"},
		{"authz_host_module", "mod_authz_host.so", "mod_authz_host.c"},
	} {
		if strings.Contains(builtin, m.builtin) || m.name == "mpm_event_module" && (strings.Contains(builtin, "prefork.c") || strings.Contains(builtin, "worker.c")) {
			continue
		}
		path := filepath.Join(dir, m.file)
		if _, err := os.Stat(path); err != nil {
			skipNoTool(t, "apache2 has no %s built in and %s is missing: cannot check the file with it", m.name, path)
		}
		fmt.Fprintf(&b, "LoadModule %s %s\n", m.name, path)
	}
	return b.String()
}

// apacheConf is the minimal configuration apache2 -t and the server run
// with: every path inside dir, the block list included in the document
// root's <Directory> and in <Location "/">.
func apacheConf(t *testing.T, apache, dir, include string, port int) string {
	t.Helper()
	return fmt.Sprintf(`ServerRoot "%[1]s"
DefaultRuntimeDir "%[1]s"
PidFile "%[1]s/apache2.pid"
ErrorLog "%[1]s/error.log"
%[2]sUser #65534
Group #65534
ServerName 127.0.0.1
Listen 127.0.0.1:%[4]d
DocumentRoot "%[1]s/www"
<Directory "%[1]s/www">
    Include "%[3]s"
</Directory>
<Location "/">
    Include "%[3]s"
</Location>
`, dir, apacheModules(t, apache), include, port)
}

func TestApacheAccepts(t *testing.T) {
	apache := serverTool(t, "apache2")
	for _, tc := range serverLists(t) {
		t.Run(tc.name, func(t *testing.T) {
			data := writeFile(t, "apache", "blocklist.apache.conf", tc.list)
			dir := t.TempDir()
			if err := os.Mkdir(filepath.Join(dir, "www"), 0o755); err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(dir, "blocklist.apache.conf")
			if err := os.WriteFile(file, data, 0o644); err != nil {
				t.Fatal(err)
			}
			conf := filepath.Join(dir, "apache2.conf")
			if err := os.WriteFile(conf, []byte(apacheConf(t, apache, dir, file, loopbackPort(t))), 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := exec.Command(apache, "-t", "-f", conf).CombinedOutput()
			if err != nil || strings.TrimSpace(string(out)) != "Syntax OK" {
				t.Fatalf("apache2 -t: %v\n%s\nfile:\n%s", err, out, data)
			}
			t.Logf("apache2 -t: %s", out)
			rules := ruleLines(data)
			want := []string{"<RequireAll>", "Require all granted"}
			for _, b := range tc.list.Blocks {
				want = append(want, "Require not ip "+b.String())
			}
			want = append(want, "</RequireAll>")
			if strings.Join(rules, "\n") != strings.Join(want, "\n") {
				t.Fatalf("directives:\n%s\nwant:\n%s", strings.Join(rules, "\n"), strings.Join(want, "\n"))
			}
			// Each reason is the comment line just before its Require.
			lines := strings.Split(string(data), "\n")
			for i, line := range lines {
				if strings.HasPrefix(line, "    Require not ip ") {
					if i == 0 || !strings.HasPrefix(lines[i-1], "    # ") {
						t.Errorf("line %d %q has no reason before it", i+1, line)
					}
				}
			}
		})
	}
}

// TestApacheDenies runs apache2 on loopback with the file included in
// <Location "/"> and checks that a listed client is refused (403) and one
// not listed reaches the missing document (404).
func TestApacheDenies(t *testing.T) {
	apache := serverTool(t, "apache2")
	needLoopbackSources(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "blocklist.apache.conf")
	if err := os.WriteFile(file, writeFile(t, "apache", "blocklist.apache.conf", loopbackList()), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "www"), 0o755); err != nil {
		t.Fatal(err)
	}
	// The server may run as nobody: let it reach the document root.
	for _, d := range []string{dir, filepath.Dir(dir)} {
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	port := loopbackPort(t)
	conf := filepath.Join(dir, "apache2.conf")
	if err := os.WriteFile(conf, []byte(apacheConf(t, apache, dir, file, port)), 0o644); err != nil {
		t.Fatal(err)
	}
	output := startServer(t, exec.Command(apache, "-X", "-f", conf))
	url := "http://127.0.0.1:" + strconv.Itoa(port) + "/missing"
	for _, tc := range []struct {
		src  string
		want int
	}{
		{"127.0.0.3", http.StatusNotFound},  // not listed
		{"127.0.0.2", http.StatusForbidden}, // listed alone
		{"127.0.0.9", http.StatusForbidden}, // inside the listed /30
		{"127.0.0.12", http.StatusNotFound}, // just past it
	} {
		if got := statusFrom(t, tc.src, url); got != tc.want {
			log, _ := os.ReadFile(filepath.Join(dir, "error.log"))
			t.Errorf("GET from %s: status %d, want %d\n%s%s", tc.src, got, tc.want, output, log)
		}
	}
}
