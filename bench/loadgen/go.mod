module attest/bench/loadgen

go 1.22
