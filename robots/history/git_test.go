package history

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// gitRepo is a temporary git repository driven by the test, independent of
// the machine's git configuration and identity.
type gitRepo struct {
	t   testing.TB
	dir string
}

func newGitRepo(t testing.TB) *gitRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	r := &gitRepo{t: t, dir: t.TempDir()}
	r.git("", "init", "-q", "-b", "main")
	return r
}

// git runs git in the repository; date, when set, is both the author and
// the committer date.
func (r *gitRepo) git(date string, args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=crawlaudit test", "-c", "user.email=test@example.invalid",
		"-c", "commit.gpgsign=false", "-c", "init.defaultBranch=main", "-C", r.dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
	if date != "" {
		cmd.Env = append(cmd.Env, "GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
	}
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

func (r *gitRepo) write(rel, content string) {
	r.t.Helper()
	p := filepath.Join(r.dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

// commit stages everything and commits it at date.
func (r *gitRepo) commit(date, msg string) string {
	r.t.Helper()
	r.git("", "add", "-A")
	r.git(date, "commit", "-q", "--allow-empty", "-m", msg)
	return r.git("", "rev-parse", "HEAD")
}

func TestLoadGit(t *testing.T) {
	r := newGitRepo(t)
	r.write("robots.txt", "v1")
	c1 := r.commit("2026-10-01T00:00:00Z", "first")
	r.write("README", "unrelated")
	r.commit("2026-10-02T00:00:00Z", "unrelated change")

	// A branch changes robots.txt on 10-03, merged into main on 10-05: the
	// change goes live at the merge.
	r.git("", "checkout", "-q", "-b", "feature")
	r.write("robots.txt", "v2")
	r.commit("2026-10-03T00:00:00Z", "feature")
	r.git("", "checkout", "-q", "main")
	r.write("other", "x")
	r.commit("2026-10-04T00:00:00Z", "main moves on")
	r.git("2026-10-05T00:00:00Z", "merge", "-q", "--no-ff", "-m", "merge feature", "feature")
	merge := r.git("", "rev-parse", "HEAD")

	// Moved to public-robots.txt: followed; content unchanged, so no new version.
	r.git("", "mv", "robots.txt", "public-robots.txt")
	r.commit("2026-10-06T00:00:00Z", "move")
	r.write("public-robots.txt", "v3")
	c3 := r.commit("2026-10-07T12:30:00+02:00", "v3 (committed in CEST)")

	// Deleted on 10-08: no robots.txt, allow all.
	r.git("", "rm", "-q", "public-robots.txt")
	del := r.commit("2026-10-08T00:00:00Z", "delete")

	// Re-created on 10-09, then changed twice in the same second: only the
	// second of those is ever in effect.
	r.write("public-robots.txt", "v4")
	r.commit("2026-10-09T00:00:00Z", "recreate")
	r.write("public-robots.txt", "v5-never")
	never := r.commit("2026-10-10T00:00:00Z", "quick fix 1")
	r.write("public-robots.txt", "v5")
	c5 := r.commit("2026-10-10T00:00:00Z", "quick fix 2")

	// A skewed clock: committed "before" its parent; live from the parent's
	// instant (and so replacing it).
	r.write("public-robots.txt", "v6-skewed")
	r.commit("2026-10-09T12:00:00Z", "skewed")

	h, err := Load("git:"+r.dir+"//public-robots.txt", Options{})
	if err != nil {
		t.Fatal(err)
	}
	type vv struct{ start, data, name string }
	var got []vv
	for _, v := range h.Versions("") {
		d := string(v.Data)
		if v.Deleted {
			d = "<deleted>"
		}
		got = append(got, vv{v.Start.Format(time.RFC3339), d, v.Name})
	}
	want := []vv{
		{"2026-10-01T00:00:00Z", "v1", c1 + ":robots.txt"},
		{"2026-10-05T00:00:00Z", "v2", merge + ":robots.txt"},
		{"2026-10-07T10:30:00Z", "v3", c3 + ":public-robots.txt"},
		{"2026-10-08T00:00:00Z", "<deleted>", del + ":public-robots.txt"},
		{"2026-10-09T00:00:00Z", "v4", ""},
		{"2026-10-10T00:00:00Z", "v6-skewed", ""},
	}
	if len(got) != len(want) {
		t.Fatalf("versions:\n%v\nwant\n%v", got, want)
	}
	for i := range want {
		if got[i].start != want[i].start || got[i].data != want[i].data || (want[i].name != "" && got[i].name != want[i].name) {
			t.Errorf("version %d = %v, want %v", i, got[i], want[i])
		}
	}
	if d := h.Versions("")[3]; !d.Deleted || len(d.Data) != 0 {
		t.Errorf("deletion version = %+v, want Deleted and no Data", d)
	}
	w := strings.Join(h.Warnings(), "\n")
	for _, s := range []string{never, c5, "never in effect", "before that of the previous version"} {
		if !strings.Contains(w, s) {
			t.Errorf("warnings do not mention %q:\n%s", s, w)
		}
	}
	for _, c := range []struct{ at, want string }{
		{"2026-09-30T23:59:59Z", ""},
		{"2026-10-01T00:00:00Z", "v1"},
		{"2026-10-03T00:00:00Z", "v1"}, // on a branch, not yet live
		{"2026-10-05T00:00:00Z", "v2"},
		{"2026-10-07T10:29:59Z", "v2"},
		{"2026-10-07T10:30:00Z", "v3"},
		{"2026-10-09T11:59:59Z", "v4"},
		{"2026-10-10T00:00:00Z", "v6-skewed"},
	} {
		wantAt(t, h, "example.com", c.at, c.want)
	}
	id, ok := h.At("", mustTime(t, "2026-10-08T12:00:00Z"))
	if !ok || !h.Version(id).Deleted {
		t.Errorf("At(deleted period) = %d, %v; want the deletion", id, ok)
	}

	// The path as it was before the move names only the old history; the
	// --follow of git does not look forward.
	h, err = Load("git:"+r.dir+"//robots.txt", Options{Host: "example.com"})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(h.Versions("example.com")); n != 3 { // v1, v2, moved away (deleted)
		t.Errorf("old path: %d versions, want 3: %+v", n, h.Versions("example.com"))
	}
	if vs := h.Versions("example.com"); len(vs) == 3 && !vs[2].Deleted {
		t.Errorf("old path: last version %+v, want the move as a deletion", vs[2])
	}
}

func TestLoadGitErrors(t *testing.T) {
	r := newGitRepo(t)
	r.write("robots.txt", "v1")
	r.commit("2026-10-01T00:00:00Z", "first")
	notRepo := t.TempDir()
	for _, c := range []struct {
		name, src string
		want      []string
	}{
		{"not a repository", "git:" + notRepo + "//robots.txt", []string{notRepo, "git log"}},
		{"never committed", "git:" + r.dir + "//public/robots.txt", []string{"public/robots.txt", "never committed"}},
		{"no path", "git:" + r.dir + "//", []string{"git:REPO//PATH"}},
		{"no separator", "git:" + r.dir, []string{"git:REPO//PATH"}},
		{"option-like repo", "git:--upload-pack=x//robots.txt", []string{"'-'"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Load(c.src, Options{})
			if err == nil {
				t.Fatal("Load succeeded, want an error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestLoadGitSubmoduleAndSymlink(t *testing.T) {
	r := newGitRepo(t)
	r.write("real.txt", "v1")
	if err := os.Symlink("real.txt", filepath.Join(r.dir, "robots.txt")); err != nil {
		t.Skip(err)
	}
	c := r.commit("2026-10-01T00:00:00Z", "symlink")
	_, err := Load("git:"+r.dir+"//robots.txt", Options{})
	if err == nil || !strings.Contains(err.Error(), c) || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("err = %v, want one naming commit %s and the symbolic link", err, c)
	}
}

func TestParseGitLog(t *testing.T) {
	z := "\x00"
	out := "commit aaaa 1790000000" + z + "\n:100644 100644 1111 2222 M" + z + "robots.txt" + z +
		"commit bbbb 1780000000" + z + "\n:100644 100644 3333 1111 R087" + z + "old.txt" + z + "robots.txt" + z +
		"commit cccc 1770000000" + z + "\n:000000 100644 0000 3333 A" + z + "old.txt" + z
	got, err := parseGitLog([]byte(out))
	if err != nil {
		t.Fatal(err)
	}
	var s []string
	for _, c := range got {
		s = append(s, c.commit+" "+c.path+" "+c.blob+" "+c.when.Format(time.RFC3339))
	}
	want := []string{"aaaa robots.txt 2222 2026-09-21T14:13:20Z", "bbbb robots.txt 1111 2026-05-28T20:26:40Z", "cccc old.txt 3333 2026-02-02T02:40:00Z"}
	if !slices.Equal(s, want) {
		t.Errorf("parseGitLog = %q, want %q", s, want)
	}
	for _, bad := range []string{
		"commit aaaa" + z,
		"commit aaaa notanumber" + z,
		":100644 100644 1 2 M" + z + "x" + z,
		"commit aaaa 1" + z + "\n:100644 100644 1 2 R100" + z + "x" + z,
		"commit aaaa 1" + z,
		"garbage" + z,
	} {
		if _, err := parseGitLog([]byte(bad)); err == nil {
			t.Errorf("parseGitLog(%q) succeeded", bad)
		}
	}
}
