// Command loadgen is the HTTP client of bench/api_load.py: a cheap load generator, so that the
// benchmark measures the server and not its own client (the Python client spent 1-2.5 ms of CPU
// per request on the same 2 cores as the server). Standard library only; api_load.py builds it
// with `go build` (offline) into a temporary directory.
//
// Protocol with api_load.py (stdin/stdout, one JSON object per line):
//
//	stdin, first line: {"base": URL, "key": K, "path": P, "bodies": [...], "clients": N,
//	                    "requests": R, "warmup": W, "seconds": S}
//	stdout: {"warm": true, ...}   after W untimed requests over the same connections
//	stdin:  "go"                  api_load.py has read its CPU counters; the timed part starts
//	stdout: {"latencies_s": [...], "errors": [...], "states": {...}, "wall_s": ..., "cpu_s": ...}
//
// Each client is one goroutine with its own keep-alive connection (its own Transport), sending
// the pre-encoded bodies round robin (request n gets bodies[n % len]) until R requests are
// answered or S seconds pass: the same question mix for any client count.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

type config struct {
	Base     string   `json:"base"`
	Key      string   `json:"key"`
	Path     string   `json:"path"`
	Bodies   []string `json:"bodies"`
	Clients  int      `json:"clients"`
	Requests int      `json:"requests"`
	Warmup   int      `json:"warmup"`
	Seconds  float64  `json:"seconds"`
}

type result struct {
	Latencies []float64      `json:"latencies_s"`
	Errors    []string       `json:"errors"`
	States    map[string]int `json:"states"`
	Wall      float64        `json:"wall_s"`
	CPU       float64        `json:"cpu_s"`
}

func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)/1e6 }
	return tv(ru.Utime) + tv(ru.Stime)
}

// run sends `total` requests (or until the deadline) over the clients' connections.
func run(cfg config, clients []*http.Client, bodies [][]byte, total int, deadline time.Time) result {
	var next int64 = -1
	var mu sync.Mutex
	res := result{States: map[string]int{}, Latencies: []float64{}, Errors: []string{}}
	var wg sync.WaitGroup
	url := cfg.Base + cfg.Path
	for _, client := range clients {
		wg.Add(1)
		go func(client *http.Client) {
			defer wg.Done()
			for time.Now().Before(deadline) {
				n := int(atomic.AddInt64(&next, 1))
				if n >= total {
					return
				}
				req, _ := http.NewRequest("POST", url, bytes.NewReader(bodies[n%len(bodies)]))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+cfg.Key)
				start := time.Now()
				resp, err := client.Do(req)
				var payload []byte
				if err == nil {
					payload, err = io.ReadAll(resp.Body)
					resp.Body.Close()
				}
				elapsed := time.Since(start).Seconds()
				mu.Lock()
				switch {
				case err != nil:
					res.Errors = append(res.Errors, err.Error())
				case resp.StatusCode != 200:
					if len(payload) > 200 {
						payload = payload[:200]
					}
					res.Errors = append(res.Errors, fmt.Sprintf("%d: %s", resp.StatusCode, payload))
				default:
					if state, jerr := answerState(payload); jerr != nil {
						res.Errors = append(res.Errors, "bad answer: "+jerr.Error())
					} else {
						res.Latencies = append(res.Latencies, elapsed)
						res.States[state]++
					}
				}
				mu.Unlock()
			}
		}(client)
	}
	wg.Wait()
	return res
}

// answerState reads the top-level "state" of an evidence report (it comes third, after
// request_id and question) without decoding the whole ~30 KB answer: the client's CPU per request
// stays small. A body that is not a JSON object holding a string "state" is an error.
func answerState(payload []byte) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(payload))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return "", fmt.Errorf("not a JSON object")
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return "", err
		}
		if key == "state" {
			var state string
			if err := dec.Decode(&state); err != nil {
				return "", err
			}
			if !bytes.HasSuffix(bytes.TrimSpace(payload), []byte("}")) {
				return "", fmt.Errorf("truncated answer")
			}
			return state, nil
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return "", err
		}
	}
	return "", fmt.Errorf("no state in the answer")
}

func main() {
	runtime.GOMAXPROCS(1) // a client's work is waiting; one OS thread keeps its CPU small
	in := bufio.NewReader(os.Stdin)
	line, err := in.ReadBytes('\n')
	if err != nil && len(line) == 0 {
		fmt.Fprintln(os.Stderr, "loadgen: no configuration on stdin")
		os.Exit(2)
	}
	var cfg config
	if err := json.Unmarshal(line, &cfg); err != nil || cfg.Clients < 1 || len(cfg.Bodies) == 0 {
		fmt.Fprintln(os.Stderr, "loadgen: bad configuration:", err)
		os.Exit(2)
	}
	bodies := make([][]byte, len(cfg.Bodies))
	for i, b := range cfg.Bodies {
		bodies[i] = []byte(b)
	}
	clients := make([]*http.Client, cfg.Clients)
	for i := range clients {
		transport := &http.Transport{
			DialContext:         (&net.Dialer{Timeout: 30 * time.Second}).DialContext,
			MaxIdleConnsPerHost: 1,
			MaxConnsPerHost:     1, // exactly one keep-alive connection per client
			DisableCompression:  true,
		}
		clients[i] = &http.Client{Transport: transport, Timeout: 120 * time.Second}
	}
	out := json.NewEncoder(os.Stdout)
	if cfg.Warmup > 0 {
		warm := run(cfg, clients, bodies, cfg.Warmup, time.Now().Add(300*time.Second))
		if len(warm.Errors) > 0 {
			out.Encode(map[string]any{"warm": false, "errors": warm.Errors})
			os.Exit(1)
		}
	}
	out.Encode(map[string]any{"warm": true})
	if _, err := in.ReadBytes('\n'); err != nil {
		os.Exit(1)
	}
	cpu0 := cpuSeconds()
	start := time.Now()
	res := run(cfg, clients, bodies, cfg.Requests, start.Add(time.Duration(cfg.Seconds*float64(time.Second))))
	res.Wall = time.Since(start).Seconds()
	res.CPU = cpuSeconds() - cpu0
	out.Encode(res)
}
