import subprocess, sys, time, threading
t = time.time()
p = subprocess.Popen(sys.argv[1:], stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
def pump(f, tag):
    for line in f:
        print("%.3f %s %s" % (time.time() - t, tag, line.rstrip()[:150]), flush=True)
a = threading.Thread(target=pump, args=(p.stdout, "O")); a.start()
pump(p.stderr, "E"); a.join(); p.wait()
print("%.3f end" % (time.time() - t))
