# RUN: %expect-exit 1 %harp analyze --format json %S/Inputs/train.py > %t.json
# RUN: %python -c "import json,sys; d=json.load(open(sys.argv[1])); h=[h for h in d['hints'] if h['id'] == 'HARP201'][0]; print(h['id'], h['name'], h['span']['line'], h['span']['col'], h['fix'], [a['kind'] for a in h['assumptions']])" %t.json | FileCheck %s
# CHECK: HARP201 host-sync-in-loop 25 27 safe ['tensor', 'loop-runs', 'accelerator']
