import json,sys
d=json.load(open(sys.argv[1]))
runs=d['runs'] if isinstance(d,dict) and 'runs' in d else d
for r in runs:
    print(r['threads'], r['round'], r['arm'], 'cpu p50 %.2f p95 %.2f wall p50 %.2f p95 %.2f rss %.0f load %s' % (r['cpuP50'], r['cpuP95'], r['wallP50'], r['wallP95'], r['rssMiB'], r['uptimeBefore'].split('average:')[1].split(',')[0].strip()+'→'+r['uptimeAfter'].split('average:')[1].split(',')[0].strip()))
