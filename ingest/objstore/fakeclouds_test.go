package objstore

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
)

// The stand-ins for Azure and Cloud Storage live as long as the test
// process: gocloud's azblob opener reads the environment once a process,
// and its gs opener for an emulator keeps its client, so every test meets
// the same servers and environment, whatever runs first.
var (
	azureSigs    chan string // the SAS signatures the Azure stand-in saw
	gcsStandIn   string      // host:port of the Cloud Storage stand-in
	azureStandIn *httptest.Server
)

const azureSAS = "SECRETSASSIG123"

var standInBlobs = map[string]string{
	"cf/E2SAMPLE.2026-10-01-00.aaaa.gz": "first day\n",
	"cf/E2SAMPLE.2026-10-11-00.bbbb.gz": "eleventh day\n",
	"cf/notes.txt":                      "notes\n",
	"logs/20261001/a.log.gz":            "first\n",
	"logs/20261011/b.log.gz":            "eleventh\n",
}

func TestMain(m *testing.M) {
	azureSigs = make(chan string, 100)
	azureStandIn = azureBlobs("devstoreaccount1", standInBlobs)
	os.Setenv("AZURE_STORAGE_ACCOUNT", "devstoreaccount1")
	os.Setenv("AZURE_STORAGE_KEY", "")
	os.Setenv("AZURE_STORAGE_CONNECTION_STRING", "")
	os.Setenv("AZURE_STORAGE_SAS_TOKEN", "sv=2020-08-04&ss=b&sig="+azureSAS)
	os.Setenv("AZURE_STORAGE_DOMAIN", strings.TrimPrefix(azureStandIn.URL, "http://"))
	os.Setenv("AZURE_STORAGE_PROTOCOL", "http")
	os.Setenv("AZURE_STORAGE_IS_LOCAL_EMULATOR", "true")
	gcs := gcsObjects("cdn-logs", standInBlobs)
	gcsStandIn = strings.TrimPrefix(gcs.URL, "http://")
	code := m.Run()
	azureStandIn.Close()
	gcs.Close()
	os.Exit(code)
}

// sortedKeys returns the keys of m in order.
func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// azureBlobs serves the two calls of Azure's Blob REST API that listing
// and reading use (List Blobs, Get Blob), from blobs in memory, as a
// stand-in for Azure on 127.0.0.1
// (https://learn.microsoft.com/en-us/rest/api/storageservices/list-blobs,
// https://learn.microsoft.com/en-us/rest/api/storageservices/get-blob).
// Its container "logs" holds the blobs; any other refuses every request
// as Azure refuses a bad signature.
func azureBlobs(account string, blobs map[string]string) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		q := r.URL.Query()
		azureSigs <- q.Get("sig")
		base := "/" + account + "/logs"
		switch {
		case !strings.HasPrefix(r.URL.Path+"/", base+"/"):
			w.Header().Set("x-ms-error-code", "AuthenticationFailed")
			w.WriteHeader(http.StatusForbidden)
			w.Write([]byte(`<?xml version="1.0" encoding="utf-8"?><Error><Code>AuthenticationFailed</Code><Message>Server failed to authenticate the request.</Message></Error>`))
		case r.URL.Path == base && q.Get("comp") == "list":
			prefix := q.Get("prefix")
			var b strings.Builder
			fmt.Fprintf(&b, `<?xml version="1.0" encoding="utf-8"?><EnumerationResults ServiceEndpoint="http://%s/%s/" ContainerName="logs"><Prefix>%s</Prefix><Blobs>`, r.Host, account, prefix)
			for _, n := range sortedKeys(blobs) {
				if strings.HasPrefix(n, prefix) {
					fmt.Fprintf(&b, `<Blob><Name>%s</Name><Properties><Last-Modified>Sat, 28 Nov 2026 09:00:00 GMT</Last-Modified><Etag>0x8D1</Etag><Content-Length>%d</Content-Length><Content-Type>application/octet-stream</Content-Type><BlobType>BlockBlob</BlobType></Properties></Blob>`, n, len(blobs[n]))
				}
			}
			b.WriteString(`</Blobs><NextMarker /></EnumerationResults>`)
			w.Header().Set("Content-Type", "application/xml")
			w.Write([]byte(b.String()))
		default:
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
			if r.Method != http.MethodHead {
				w.Write([]byte(data))
			}
		}
	}))
}

// TestAzureListAndRead lists a prefix and reads its objects through
// gocloud's azblob opener, with the SAS token of the environment.
func TestAzureListAndRead(t *testing.T) {
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

// TestAzureRefused: azblob:// of a container the stand-in refuses: the
// SAS token of the environment reaches the server, as the standard chain
// sends it, and never the message, which says the access was denied, on
// one line.
func TestAzureRefused(t *testing.T) {
	for len(azureSigs) > 0 {
		<-azureSigs
	}
	st := &Store{}
	defer st.Close()
	_, _, err := st.Expand(context.Background(), "azblob://denied/cf/", Period{}, nil)
	if len(azureSigs) == 0 || <-azureSigs != azureSAS {
		t.Fatal("the server saw no SAS signature")
	}
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	if strings.Contains(msg, azureSAS) || strings.Contains(msg, "\n") || !strings.Contains(msg, "cannot list the objects: access denied") || !strings.Contains(msg, "AuthenticationFailed") {
		t.Errorf("message: %s", msg)
	}
}

// gcsObjects serves the calls of Cloud Storage's JSON and XML APIs that
// listing and reading use (objects.list, a media download), from objects
// in memory, as the emulator STORAGE_EMULATOR_HOST names would
// (https://cloud.google.com/storage/docs/json_api/v1/objects/list).
func gcsObjects(bucket string, objs map[string]string) *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		switch {
		case p == "/storage/v1/b/"+bucket+"/o":
			prefix := r.URL.Query().Get("prefix")
			var items []string
			for _, n := range sortedKeys(objs) {
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
	t.Setenv("STORAGE_EMULATOR_HOST", gcsStandIn)
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
