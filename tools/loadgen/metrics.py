#!/usr/bin/env python3
"""Prints a local mindpad's /metrics (Prometheus text) for the benchmarks.

usage: metrics.py PORT
"""
import sys
import urllib.request

sys.stdout.write(urllib.request.urlopen(f"http://127.0.0.1:{int(sys.argv[1])}/metrics", timeout=5).read().decode())
