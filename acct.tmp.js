const fs=require('fs'),path=require('path');
const {decodeTables}=require('./out/engine/src/store/tables');
const {Bm25Index}=require('./out/engine/src/lexical/bm25');
const dir=process.argv[2];
function acct(obj,prefix,out,seen){ if(!obj||typeof obj!=='object'||seen.has(obj))return; seen.add(obj);
 if(ArrayBuffer.isView(obj)){out[prefix]=(out[prefix]||0)+obj.byteLength; return;}
 if(obj instanceof Map){let n=0; for(const [k,v] of obj){ n++; acct(v,prefix+'{}',out,seen);} out[prefix+'#map']=(out[prefix+'#map']||0)+n; return;}
 if(Array.isArray(obj)){ out[prefix+'#arr']=(out[prefix+'#arr']||0)+obj.length; for(const v of obj.slice(0,1000)) acct(v,prefix+'[]',out,seen); return;}
 for(const k of Object.keys(obj)) acct(obj[k],prefix+'.'+k,out,seen);}
const t=decodeTables(fs.readFileSync(path.join(dir,'tables.bin')));
const out={}; acct(t,'tables',out,new Set());
const l=Bm25Index.deserialize(fs.readFileSync(path.join(dir,'lexical.bin'))); acct(l,'lex',out,new Set());
for(const [k,v] of Object.entries(out).sort((a,b)=>b[1]-a[1]).slice(0,40)) console.log(k.padEnd(50), k.includes('#')?v:(v/1048576).toFixed(1)+' MB');
