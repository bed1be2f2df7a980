# Rest states after a flight with no change said: where the flight was last seen, and the truth.
import json, sys, glob, re
D, C = sys.argv[1], sys.argv[2]
for f in sorted(glob.glob(f'{D}/*.out')):
    n = f.split('/')[-1][:-4]
    t = json.load(open(f'{C}/{n}/truth.json'))
    lands = [(th['landingTime'] * 1000, th) for th in t['throws']]
    prev = -1; last_away = None
    for l in open(f):
        if l.startswith('AWAY'):
            last_away = l.strip(); continue
        if not l.startswith('REST'): continue
        pts = int(re.search(r'pts=(\d+)', l).group(1)); share = float(re.search(r'share=([\d.]+)', l).group(1))
        landed = [th for x, th in lands if prev < x <= pts]
        if share >= 2 and 'changes=[]' in l and 'crossed=false' in l and 'resh=[]' in l:
            th = landed[0] if landed else None
            truth = (th['index'], th['place'], [round(v) for v in th['restPixel']], th['bagColor']['r']) if th else None
            print(n, pts, 'truth', truth, '| last', last_away[5:] if last_away else None)
        prev = pts; last_away = None
