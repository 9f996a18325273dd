package history

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// gitChange is one commit of the first-parent history that touched PATH.
type gitChange struct {
	commit string
	when   time.Time
	path   string // PATH as it was named after the commit
	blob   string // object ID of the new content; "" for a deletion
	mode   string // the new file mode
}

// loadGit reads the git:REPO//PATH history.
func loadGit(src string) ([]Version, []string, error) {
	spec := strings.TrimPrefix(src, "git:")
	i := strings.LastIndex(spec, "//")
	if i < 0 {
		return nil, nil, fmt.Errorf("robots history %s: want git:REPO//PATH", src)
	}
	repo, path := spec[:i], strings.TrimPrefix(spec[i+2:], "/")
	if repo == "" || path == "" || strings.ContainsAny(path, "\x00\n") {
		return nil, nil, fmt.Errorf("robots history %s: want git:REPO//PATH", src)
	}
	if strings.HasPrefix(repo, "-") {
		return nil, nil, fmt.Errorf("robots history %s: repository path may not start with '-'", src)
	}
	out, err := runGit(repo, "git log", "-c", "log.showSignature=false", "log", "-z", "--first-parent", "--follow", "--raw",
		"--no-abbrev", "--no-color", "--format=commit %H %ct", "HEAD", "--", path)
	if err != nil {
		return nil, nil, fmt.Errorf("robots history %s: %w", src, err)
	}
	changes, err := parseGitLog(out)
	if err != nil {
		return nil, nil, fmt.Errorf("robots history %s: cannot parse git log output: %w", src, err)
	}
	if len(changes) == 0 {
		return nil, nil, fmt.Errorf("robots history %s: %s was never committed in the history of HEAD", src, path)
	}
	// git log lists the newest first; go forward in time.
	for l, r := 0, len(changes)-1; l < r; l, r = l+1, r-1 {
		changes[l], changes[r] = changes[r], changes[l]
	}
	var blobs []string
	for _, c := range changes {
		switch {
		case c.blob == "":
		case c.mode == "160000":
			return nil, nil, fmt.Errorf("robots history %s: commit %s: %s is a submodule, not a file", src, c.commit, c.path)
		case c.mode == "120000":
			return nil, nil, fmt.Errorf("robots history %s: commit %s: %s is a symbolic link; not supported", src, c.commit, c.path)
		default:
			blobs = append(blobs, c.blob)
		}
	}
	contents, warns, err := catBlobs(repo, blobs)
	if err != nil {
		return nil, nil, fmt.Errorf("robots history %s: %w", src, err)
	}
	var (
		vs       []Version
		prevBlob = "-"
	)
	for _, c := range changes {
		if c.blob == prevBlob {
			continue // a rename or a mode change: the same content stays in effect
		}
		prevBlob = c.blob
		v := Version{Start: c.when, Name: c.commit + ":" + c.path, Deleted: c.blob == ""}
		if !v.Deleted {
			v.Data = contents[c.blob]
		}
		if n := len(vs); n > 0 {
			prev := &vs[n-1]
			if v.Start.Before(prev.Start) {
				warns = append(warns, fmt.Sprintf("%s: committer date %s is before that of the previous version %s; live from %s",
					v.Name, v.Start.Format(time.RFC3339), prev.Name, prev.Start.Format(time.RFC3339)))
				v.Start = prev.Start
			}
			if v.Start.Equal(prev.Start) {
				warns = append(warns, fmt.Sprintf("%s: never in effect: replaced by %s at the same instant %s",
					prev.Name, v.Name, v.Start.Format(time.RFC3339)))
				vs[n-1] = v
				continue
			}
		}
		vs = append(vs, v)
	}
	return vs, warns, nil
}

// parseGitLog parses the output of git log -z --raw --format="commit %H %ct":
// NUL-separated fields, a commit line followed by its raw diff entries
// (":oldmode newmode oldsha newsha STATUS", then one path, or two for a
// rename or copy).
func parseGitLog(out []byte) ([]gitChange, error) {
	fields := strings.Split(string(out), "\x00")
	var (
		changes []gitChange
		cur     *gitChange
	)
	for i := 0; i < len(fields); i++ {
		f := strings.TrimLeft(fields[i], "\n")
		switch {
		case f == "":
			continue
		case strings.HasPrefix(f, "commit "):
			parts := strings.Fields(f)
			if len(parts) != 3 {
				return nil, fmt.Errorf("bad commit line %q", f)
			}
			sec, err := strconv.ParseInt(parts[2], 10, 64)
			if err != nil {
				return nil, fmt.Errorf("bad commit time in %q: %w", f, err)
			}
			changes = append(changes, gitChange{commit: parts[1], when: time.Unix(sec, 0).UTC()})
			cur = &changes[len(changes)-1]
		case strings.HasPrefix(f, ":"):
			if cur == nil {
				return nil, fmt.Errorf("diff entry %q before any commit", f)
			}
			parts := strings.Fields(f[1:])
			if len(parts) != 5 || parts[4] == "" {
				return nil, fmt.Errorf("bad diff entry %q", f)
			}
			npaths := 1
			if s := parts[4][0]; s == 'R' || s == 'C' {
				npaths = 2
			}
			if i+npaths >= len(fields) {
				return nil, fmt.Errorf("diff entry %q without its path", f)
			}
			i += npaths
			cur.path = fields[i]
			cur.mode = parts[1]
			cur.blob = parts[3]
			if parts[4][0] == 'D' || strings.Trim(parts[3], "0") == "" {
				cur.blob = ""
			}
		default:
			return nil, fmt.Errorf("unexpected field %q", f)
		}
	}
	for _, c := range changes {
		if c.path == "" {
			return nil, fmt.Errorf("commit %s lists no change of the path", c.commit)
		}
	}
	return changes, nil
}

// catBlobs reads the given blobs with one git cat-file --batch process.
func catBlobs(repo string, blobs []string) (map[string][]byte, []string, error) {
	contents := make(map[string][]byte, len(blobs))
	if len(blobs) == 0 {
		return contents, nil, nil
	}
	var in bytes.Buffer
	for _, b := range blobs {
		in.WriteString(b)
		in.WriteByte('\n')
	}
	cmd := exec.Command("git", "-C", repo, "cat-file", "--batch")
	cmd.Stdin = &in
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, fmt.Errorf("cannot run git: %w", err)
	}
	var warns []string
	r := bufio.NewReader(stdout)
	readErr := func() error {
		for _, want := range blobs {
			line, err := r.ReadString('\n')
			if err != nil {
				return fmt.Errorf("git cat-file: reading header of %s: %w", want, err)
			}
			parts := strings.Fields(line)
			if len(parts) == 2 && parts[1] == "missing" {
				return fmt.Errorf("git cat-file: blob %s is missing from the repository", want)
			}
			if len(parts) != 3 || parts[0] != want || parts[1] != "blob" {
				return fmt.Errorf("git cat-file: unexpected header %q for %s", strings.TrimSpace(line), want)
			}
			size, err := strconv.ParseInt(parts[2], 10, 64)
			if err != nil || size < 0 {
				return fmt.Errorf("git cat-file: bad size in %q", strings.TrimSpace(line))
			}
			keep := min(size, MaxVersionBytes)
			data := make([]byte, keep)
			if _, err := io.ReadFull(r, data); err != nil {
				return fmt.Errorf("git cat-file: reading blob %s: %w", want, err)
			}
			if size > keep {
				warns = append(warns, fmt.Sprintf("blob %s: truncated to its first %d bytes", want, MaxVersionBytes))
				if _, err := io.CopyN(io.Discard, r, size-keep); err != nil {
					return fmt.Errorf("git cat-file: reading blob %s: %w", want, err)
				}
			}
			if b, err := r.ReadByte(); err != nil || b != '\n' {
				return fmt.Errorf("git cat-file: blob %s not followed by a newline", want)
			}
			contents[want] = data
		}
		return nil
	}()
	if readErr != nil {
		_, _ = io.Copy(io.Discard, r)
	}
	waitErr := cmd.Wait()
	if readErr != nil {
		return nil, nil, readErr
	}
	if waitErr != nil {
		return nil, nil, fmt.Errorf("git cat-file: %w: %s", waitErr, firstLine(stderr.String()))
	}
	return contents, warns, nil
}

// runGit runs git -C repo args... and returns its standard output; the error
// names the command by label and carries the first line of its standard
// error.
func runGit(repo, label string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", append([]string{"-C", repo}, args...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return nil, fmt.Errorf("%s: %s", label, firstLine(stderr.String()))
		}
		return nil, fmt.Errorf("cannot run git: %w", err)
	}
	return stdout.Bytes(), nil
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if s == "" {
		s = "(no message)"
	}
	return s
}
