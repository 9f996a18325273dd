package objstore

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// azureBlobs serves the two calls of Azure's Blob REST API that listing
// and reading use (List Blobs, Get Blob), from blobs in memory, as a
// stand-in for Azure on 127.0.0.1
// (https://learn.microsoft.com/en-us/rest/api/storageservices/list-blobs,
// https://learn.microsoft.com/en-us/rest/api/storageservices/get-blob).
func azureBlobs(t *testing.T, account, container string, blobs map[string]string, names []string) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		base := "/" + account + "/" + container
		q := r.URL.Query()
		switch {
		case r.URL.Path == base && q.Get("comp") == "list":
			prefix := q.Get("prefix")
			var b strings.Builder
			fmt.Fprintf(&b, `<?xml version="1.0" encoding="utf-8"?><EnumerationResults ServiceEndpoint="http://%s/%s/" ContainerName="%s"><Prefix>%s</Prefix><Blobs>`, r.Host, account, container, prefix)
			for _, n := range names {
				if strings.HasPrefix(n, prefix) {
					fmt.Fprintf(&b, `<Blob><Name>%s</Name><Properties><Last-Modified>Sat, 28 Nov 2026 09:00:00 GMT</Last-Modified><Etag>0x8D1</Etag><Content-Length>%d</Content-Length><Content-Type>application/octet-stream</Content-Type><BlobType>BlockBlob</BlobType></Properties></Blob>`, n, len(blobs[n]))
				}
			}
			b.WriteString(`</Blobs><NextMarker /></EnumerationResults>`)
			w.Header().Set("Content-Type", "application/xml")
			w.Write([]byte(b.String()))
		case strings.HasPrefix(r.URL.Path, base+"/"):
			data, ok := blobs[strings.TrimPrefix(r.URL.Path, base+"/")]
			if !ok {
				w.Header().Set("x-ms-error-code", "BlobNotFound")
				w.WriteHeader(http.StatusNotFound)
				return
			}
			w.Header().Set("Content-Length", fmt.Sprint(len(data)))
			w.Header().Set("Last-Modified", "Sat, 28 Nov 2026 09:00:00 GMT")
			w.Header().Set("ETag", "0x8D1")
			w.Header().Set("x-ms-blob-type", "BlockBlob")
			if r.Method == http.MethodHead {
				return
			}
			w.Write([]byte(data))
		default:
			t.Errorf("unexpected request %s %s", r.Method, r.URL)
			w.WriteHeader(http.StatusBadRequest)
		}
	}))
}

// TestAzureListAndRead lists a prefix and reads its objects through
// gocloud's azblob opener, with the shared key of the environment.
func TestAzureListAndRead(t *testing.T) {
	names := []string{"cf/E2SAMPLE.2026-10-01-00.aaaa.gz", "cf/E2SAMPLE.2026-10-11-00.bbbb.gz", "cf/notes.txt"}
	blobs := map[string]string{names[0]: "first day\n", names[1]: "eleventh day\n", names[2]: "notes\n"}
	hs := azureBlobs(t, "devstoreaccount1", "logs", blobs, names)
	defer hs.Close()
	t.Setenv("AZURE_STORAGE_ACCOUNT", "devstoreaccount1")
	t.Setenv("AZURE_STORAGE_KEY", "c2VjcmV0LWtleS1mb3ItdGVzdHMtb25seQ==")
	t.Setenv("AZURE_STORAGE_SAS_TOKEN", "")
	t.Setenv("AZURE_STORAGE_CONNECTION_STRING", "")
	t.Setenv("AZURE_STORAGE_DOMAIN", strings.TrimPrefix(hs.URL, "http://"))
	t.Setenv("AZURE_STORAGE_PROTOCOL", "http")
	t.Setenv("AZURE_STORAGE_IS_LOCAL_EMULATOR", "true")
	st := &Store{}
	defer st.Close()
	skip := func(k string) string {
		if strings.HasSuffix(k, ".txt") {
			return "not a log file (.txt)"
		}
		return ""
	}
	objs, skipped, err := st.Expand(context.Background(), "azblob://logs/cf/", Period{From: day("2026-10-10T00:00:00Z")}, skip)
	if err != nil {
		t.Fatal(err)
	}
	if len(objs) != 1 || objs[0].Name != "azblob://logs/cf/E2SAMPLE.2026-10-11-00.bbbb.gz" || objs[0].Size != int64(len("eleventh day\n")) || len(skipped) != 2 {
		t.Fatalf("objects %+v, skipped %+v", objs, skipped)
	}
	r, err := st.Open(context.Background(), &objs[0])
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(r)
	r.Close()
	if err != nil || string(data) != "eleventh day\n" {
		t.Fatalf("read %q, %v", data, err)
	}
}

// gcsObjects serves the calls of Cloud Storage's JSON and XML APIs that
// listing and reading use (objects.list, a media download), from objects
// in memory, as the emulator STORAGE_EMULATOR_HOST names would
// (https://cloud.google.com/storage/docs/json_api/v1/objects/list).
func gcsObjects(t *testing.T, bucket string, objs map[string]string, names []string) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		switch {
		case p == "/storage/v1/b/"+bucket+"/o":
			prefix := r.URL.Query().Get("prefix")
			var items []string
			for _, n := range names {
				if strings.HasPrefix(n, prefix) {
					items = append(items, fmt.Sprintf(`{"kind":"storage#object","name":%q,"bucket":%q,"size":"%d","updated":"2026-11-28T09:00:00Z","generation":"1","metageneration":"1"}`, n, bucket, len(objs[n])))
				}
			}
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"kind":"storage#objects","items":[%s]}`, strings.Join(items, ","))
		default:
			key := strings.TrimPrefix(p, "/"+bucket+"/")
			key = strings.TrimPrefix(key, "/download/storage/v1/b/"+bucket+"/o/")
			data, ok := objs[key]
			if !ok {
				t.Errorf("unexpected request %s %s", r.Method, r.URL)
				w.WriteHeader(http.StatusNotFound)
				return
			}
			w.Header().Set("Content-Length", fmt.Sprint(len(data)))
			w.Header().Set("X-Goog-Generation", "1")
			w.Header().Set("X-Goog-Metageneration", "1")
			w.Header().Set("Last-Modified", "Sat, 28 Nov 2026 09:00:00 GMT")
			w.Write([]byte(data))
		}
	}))
}

// TestGCSListAndRead lists a prefix and reads an object through gocloud's
// gs opener, pointed at a stand-in on 127.0.0.1 by STORAGE_EMULATOR_HOST.
func TestGCSListAndRead(t *testing.T) {
	names := []string{"logs/20261001/a.log.gz", "logs/20261011/b.log.gz"}
	objs := map[string]string{names[0]: "first\n", names[1]: "eleventh\n"}
	hs := gcsObjects(t, "cdn-logs", objs, names)
	defer hs.Close()
	t.Setenv("STORAGE_EMULATOR_HOST", strings.TrimPrefix(hs.URL, "http://"))
	st := &Store{}
	defer st.Close()
	got, skipped, err := st.Expand(context.Background(), "gs://cdn-logs/logs/", Period{From: day("2026-10-10T00:00:00Z")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Name != "gs://cdn-logs/logs/20261011/b.log.gz" || got[0].Size != 9 || len(skipped) != 1 {
		t.Fatalf("objects %+v, skipped %+v", got, skipped)
	}
	r, err := st.Open(context.Background(), &got[0])
	if err != nil {
		t.Fatal(err)
	}
	data, err := io.ReadAll(r)
	r.Close()
	if err != nil || string(data) != "eleventh\n" {
		t.Fatalf("read %q, %v", data, err)
	}
}
