const fs=require('fs');
function acct(obj,prefix,out,seen,depth){ if(!obj||typeof obj!=='object'||seen.has(obj)||depth>8)return; seen.add(obj);
 if(ArrayBuffer.isView(obj)){out[prefix]=(out[prefix]||0)+obj.byteLength; return;}
 if(obj instanceof ArrayBuffer){out[prefix]=(out[prefix]||0)+obj.byteLength; return;}
 if(obj instanceof Map){for(const [k,v] of obj){ acct(v,prefix+'{}',out,seen,depth+1);} return;}
 if(Array.isArray(obj)){ for(const v of obj) acct(v,prefix+'[]',out,seen,depth+1); return;}
 for(const k of Object.getOwnPropertyNames(obj)) { let v; try{v=obj[k]}catch{continue} acct(v,prefix+'.'+k,out,seen,depth+1);} }
(async()=>{
const {Engine}=require('./out/engine/src/engine');
const e=await Engine.open({root:'/tmp/s100k3/repo',indexDir:'/tmp/s100k3/index'});
global.gc(); const m=process.memoryUsage(); console.log('rss',m.rss/1e6,'heapTotal',m.heapTotal/1e6,'heapUsed',m.heapUsed/1e6,'external',m.external/1e6,'ab',m.arrayBuffers/1e6);
const out={}; acct(e,'e',out,new Set(),0);
const groups={}; for(const [k,v] of Object.entries(out)){ const g=k.split('.').slice(0,4).join('.'); groups[g]=(groups[g]||0)+v; }
let tot=0; for(const [k,v] of Object.entries(groups).sort((a,b)=>b[1]-a[1])) { tot+=v; if(v>5e5) console.log(k.padEnd(40),(v/1048576).toFixed(1)); } console.log('total typed',(tot/1048576).toFixed(1));
console.log(fs.readFileSync('/proc/self/status','utf8').split('\n').filter(l=>/Rss/.test(l)).join(' '));
})()
